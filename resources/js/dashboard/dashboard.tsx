import type { DashboardProps } from '../../../app/web/page_context'
import { useSession } from '../lib/use_session'
import { MyProviders } from './my_providers'
import { ProviderArea, type ProviderScreen } from './provider_area'
import { RegisterWizard } from './register_wizard'
import { SignIn } from './sign_in'
import { SourcesContext } from './sources_context'

/** The props the server renders (app/web/controllers/show_dashboard_page_controller.ts). */
type Props = DashboardProps & { screen: 'home' | 'register' | ProviderScreen }

/**
 * The provider pages. Everything here goes through the owner API with the
 * session's bearer token, as any API client would: no second way to money,
 * statistics or feeds.
 */
export default function Dashboard({ sources, ...props }: Props) {
  return (
    <SourcesContext.Provider value={sources}>
      <Screen {...props} />
    </SourcesContext.Provider>
  )
}

function Screen({ screen, providerId, slug }: Omit<Props, 'sources'>) {
  const session = useSession()
  if (!session) return <SignIn registering={screen === 'register'} />
  if (screen === 'home') return <MyProviders />
  if (screen === 'register') return <RegisterWizard />
  return <ProviderArea id={providerId ?? ''} screen={screen} slug={slug} />
}

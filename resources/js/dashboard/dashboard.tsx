import { useSession } from '../lib/use_session'
import { MyProviders } from './my_providers'
import { ProviderArea, type ProviderScreen } from './provider_area'
import { RegisterWizard } from './register_wizard'
import { SignIn } from './sign_in'

interface Props {
  screen: 'home' | 'register' | ProviderScreen
  providerId: string | null
  slug: string | null
}

/**
 * The provider pages. Everything here goes through the owner API with the
 * session's bearer token, as any API client would: no second way to money,
 * statistics or feeds.
 */
export default function Dashboard({ screen, providerId, slug }: Props) {
  const session = useSession()
  if (!session) return <SignIn registering={screen === 'register'} />
  if (screen === 'home') return <MyProviders />
  if (screen === 'register') return <RegisterWizard />
  return <ProviderArea id={providerId ?? ''} screen={screen} slug={slug} />
}

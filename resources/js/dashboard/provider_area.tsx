import { useCallback, useEffect, useState } from 'preact/hooks'
import { api } from '../lib/api'
import { FeedScreen } from './feed_screen'
import { IntegrationScreen } from './integration_screen'
import { NewFeedScreen } from './new_feed_screen'
import { Overview } from './overview'
import { PayoutsScreen } from './payouts_screen'
import { ProfileScreen } from './profile_screen'
import { ProviderContext } from './provider_context'
import type { Provider } from './types'
import { Problem, Spinner } from './ui'

export type ProviderScreen =
  'overview' | 'new_feed' | 'feed' | 'payouts' | 'integration' | 'profile'

const NAV: Array<{ screen: ProviderScreen; label: string; path: string }> = [
  { screen: 'overview', label: 'Overview', path: '' },
  { screen: 'new_feed', label: 'Add a feed', path: '/new-feed' },
  { screen: 'payouts', label: 'Payouts', path: '/payouts' },
  { screen: 'integration', label: 'Integration', path: '/integration' },
  { screen: 'profile', label: 'Profile', path: '/profile' },
]

/** One provider's pages: its owner view (GET /providers/id/:id) shared by every screen. */
export function ProviderArea(props: { id: string; screen: ProviderScreen; slug: string | null }) {
  const [provider, setProvider] = useState<Provider | null>(null)
  const [error, setError] = useState<unknown>(null)

  const reload = useCallback(async () => {
    const { provider: fresh } = await api<{ provider: Provider }>(
      `/providers/id/${encodeURIComponent(props.id)}`
    )
    setProvider(fresh)
  }, [props.id])

  useEffect(() => {
    reload().catch(setError)
  }, [reload])

  if (error) {
    return (
      <div style="max-width:640px;margin:24px auto">
        <Problem error={error} />
        <a href="/dashboard">Back to your providers</a>
      </div>
    )
  }
  if (!provider) return <Spinner label="Loading your provider…" />

  const base = `/dashboard/p/${provider.id}`
  return (
    <ProviderContext.Provider value={{ provider, reload }}>
      <div class="dash">
        <div>
          <p class="provider-switch">
            <a href="/dashboard">Providers</a> / <strong>{provider.display_name}</strong>
          </p>
          <nav class="side-nav" aria-label="Provider">
            {NAV.map((item) => (
              <a
                key={item.screen}
                href={`${base}${item.path}`}
                aria-current={props.screen === item.screen ? 'page' : undefined}
              >
                {item.label}
              </a>
            ))}
            <a href={`/market/providers/${provider.handle}`}>Public profile ↗</a>
          </nav>
        </div>
        <div>
          {props.screen === 'overview' && <Overview />}
          {props.screen === 'new_feed' && <NewFeedScreen />}
          {props.screen === 'feed' && <FeedScreen slug={props.slug ?? ''} />}
          {props.screen === 'payouts' && <PayoutsScreen />}
          {props.screen === 'integration' && <IntegrationScreen />}
          {props.screen === 'profile' && <ProfileScreen />}
        </div>
      </div>
    </ProviderContext.Provider>
  )
}

import { useEffect, useState } from 'preact/hooks'
import { api } from '../lib/api'
import { count, noun } from '../lib/format'
import { stx } from '../lib/money'
import type { Provider } from './types'
import { Problem, Spinner } from './ui'

/** The signed-in wallet's providers (GET /me/providers); with one, straight to it. */
export function MyProviders() {
  const [providers, setProviders] = useState<Provider[] | null>(null)
  const [error, setError] = useState<unknown>(null)

  useEffect(() => {
    api<{ providers: Provider[] }>('/me/providers')
      .then(({ providers: mine }) => {
        if (mine.length === 1) location.replace(`/dashboard/p/${mine[0].id}`)
        else setProviders(mine)
      })
      .catch(setError)
  }, [])

  if (error) return <Problem error={error} />
  if (!providers) return <Spinner />
  if (providers.length === 0) {
    return (
      <div class="card" style="max-width:560px;margin:24px auto">
        <h1>Welcome to Tollbooth</h1>
        <p class="muted">
          This wallet has no provider yet. Register one with its first feed: it takes a few minutes.
        </p>
        <a class="btn btn-primary" href="/dashboard/register">
          Register as a provider
        </a>
      </div>
    )
  }
  return (
    <div>
      <div class="page-head">
        <div>
          <h1>Your providers</h1>
          <p>This wallet owns these providers.</p>
        </div>
        <a class="btn" href="/dashboard/register">
          Register another
        </a>
      </div>
      <div class="feed-grid">
        {providers.map((provider) => (
          <article class="feed-card" key={provider.id}>
            <span class={`status status-${provider.status}`}>{provider.status}</span>
            <h2>
              <a href={`/dashboard/p/${provider.id}`}>{provider.display_name}</a>
            </h2>
            <p class="by">@{provider.handle}</p>
            <p class="fresh">
              {count(provider.feeds.length)} {noun(provider.feeds.length, 'feed')} · pending{' '}
              <span class="price">{stx(provider.pending_revenue)}</span>
            </p>
          </article>
        ))}
      </div>
    </div>
  )
}

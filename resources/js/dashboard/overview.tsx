import { useCallback, useEffect, useState } from 'preact/hooks'
import { api } from '../lib/api'
import { count } from '../lib/format'
import { stx } from '../lib/money'
import { site } from '../lib/site'
import { useProvider } from './provider_context'
import type { Analytics } from './types'
import { Metric, Notice, Problem, Spinner } from './ui'
import { WeekChart } from './week_chart'

/**
 * The dashboard: balances and the 7 days' figures from GET …/analytics (the
 * rollups, refreshed while the page is open), the chart, and the feeds.
 */
export function Overview() {
  const { provider } = useProvider()
  const [analytics, setAnalytics] = useState<Analytics | null>(null)
  const [error, setError] = useState<unknown>(null)

  const load = useCallback(async () => {
    try {
      setAnalytics(await api<Analytics>(`/providers/id/${provider.id}/analytics`))
      setError(null)
    } catch (caught) {
      setError(caught)
    }
  }, [provider.id])

  useEffect(() => {
    load()
    const timer = setInterval(() => !document.hidden && load(), site().polls.dashboardMs)
    return () => clearInterval(timer)
  }, [load])

  const base = `/dashboard/p/${provider.id}`
  return (
    <div class="stack">
      <div class="page-head">
        <div>
          <p class="eyebrow">Overview</p>
          <h1>{provider.display_name}</h1>
          <p>
            @{provider.handle} ·{' '}
            {provider.integration_mode === 'partner_bridge' ? 'Partner Bridge' : 'Hosted Mirror'} ·{' '}
            <span class={`status status-${provider.status}`}>{provider.status}</span>
          </p>
        </div>
        <NextSteps pending={analytics?.pending_revenue ?? provider.pending_revenue} />
      </div>
      {provider.status === 'pending' && (
        <Notice kind="warn">
          <p>
            Your provider goes live with its first feed. <a href={`${base}/new-feed`}>Add one</a>.
          </p>
        </Notice>
      )}
      <Problem error={error} />
      {!analytics && !error && <Spinner label="Loading your figures…" />}
      {analytics && (
        <>
          <section class="metrics metrics-5" aria-label="Your figures" data-testid="figures">
            <Metric
              label="Pending revenue"
              value={stx(analytics.pending_revenue)}
              money
              testid="pending"
            />
            <Metric
              label="Lifetime earned"
              value={stx(analytics.lifetime_earned)}
              money
              testid="earned"
            />
            <Metric
              label="Total withdrawn"
              value={stx(analytics.total_withdrawn)}
              testid="withdrawn"
            />
            <Metric label="Queries, 7 days" value={count(analytics.queries_7d)} testid="queries" />
            <Metric
              label="Unique buyers, 7 days"
              value={count(analytics.unique_buyers_7d)}
              testid="buyers"
            />
          </section>
          <section class="card" aria-labelledby="week-title">
            <div class="card-title">
              <h2 id="week-title">Last 7 days</h2>
              <span class="muted small">
                {stx(analytics.revenue_7d_microstx)} earned ·{' '}
                {analytics.queries_7d > 0
                  ? `${analytics.avg_response_ms} ms avg`
                  : 'no calls in 7 days'}{' '}
                · {(analytics.error_rate * 100).toFixed(1)}% source errors
              </span>
            </div>
            <WeekChart days={analytics.day_breakdown} />
          </section>
        </>
      )}
      <section class="card" aria-labelledby="feeds-title">
        <div class="card-title">
          <h2 id="feeds-title">Feeds</h2>
          <a class="btn btn-small" href={`${base}/new-feed`}>
            Add a feed
          </a>
        </div>
        {provider.feeds.length === 0 ? (
          <p class="muted">No feed yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Feed</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Price
                  </th>
                  <th scope="col" class="num">
                    Queries 7d
                  </th>
                  <th scope="col" class="num">
                    Earned 7d
                  </th>
                </tr>
              </thead>
              <tbody>
                {provider.feeds.map((feed) => {
                  const figures = analytics?.feed_breakdown.find((row) => row.slug === feed.slug)
                  const health = feed.source_health
                  return (
                    <tr key={feed.slug}>
                      <td>
                        <a href={`${base}/feeds/${feed.slug}`}>{feed.display_name}</a>
                        <div class="small muted mono">{feed.slug}</div>
                        {health?.last_error && (
                          <div class="small" style="color:var(--bad)">
                            Source failing: {health.last_error}
                          </div>
                        )}
                      </td>
                      <td>
                        <span class={`status status-${feed.status}`}>{feed.status}</span>
                      </td>
                      <td class="num">
                        <span class="price">{feed.price_stx} STX</span>
                      </td>
                      <td class="num">{figures ? count(figures.queries) : '—'}</td>
                      <td class="num">{figures ? stx(figures.revenue_microstx) : '—'}</td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  )
}

/**
 * The page's main action is what the provider should do next: withdraw once
 * there is revenue; before, add the first feed, then link the withdrawal
 * wallet. Withdraw stays visible, disabled, saying why.
 */
function NextSteps({ pending }: { pending: number }) {
  const { provider } = useProvider()
  const base = `/dashboard/p/${provider.id}`
  if (pending > 0) {
    return (
      <div class="row">
        <a class="btn" href={`${base}/new-feed`}>
          Add a feed
        </a>
        <a class="btn btn-primary" href={`${base}/payouts`}>
          Withdraw
        </a>
      </div>
    )
  }
  const firstFeed = provider.feeds.length === 0
  const linkWallet = !firstFeed && !provider.linked_withdrawal_wallet
  return (
    <div class="row">
      {linkWallet && (
        <a class="btn btn-primary" href={`${base}/payouts`}>
          Link a withdrawal wallet
        </a>
      )}
      <a class={linkWallet ? 'btn' : 'btn btn-primary'} href={`${base}/new-feed`}>
        {firstFeed ? 'Add your first feed' : 'Add a feed'}
      </a>
      <button type="button" class="btn" disabled aria-describedby="withdraw-why">
        Withdraw
      </button>
      <p id="withdraw-why" class="small muted">
        Nothing to withdraw yet: paid calls to your feeds add to your pending revenue.
      </p>
    </div>
  )
}

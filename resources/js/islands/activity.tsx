import { useEffect, useRef, useState } from 'preact/hooks'
import { api } from '../lib/api'
import { explorerTx, site } from '../lib/site'
import { feedPaths } from '../../../app/feeds/feed_paths'

interface Call {
  id: number
  feed: string
  agent_name: string
  agent_short: string
  price_stx: number
  response_ms: number
  /** Null for a call paid from prepaid credit: no transaction of its own. */
  tx_hash: string | null
  time_ago: string
}

interface Activity {
  total_revenue_stx: number
  unique_agents: number
  activity: Call[]
}

interface Props {
  initial: Activity
  limit: number
  /** One feed's calls only (`whale-alerts`, `acme-data/btc-price`). */
  feed?: string
  /** Show response time and transaction. */
  detailed?: boolean
}

/**
 * Paid calls as they confirm: GET /activity (the public API agents read too),
 * polled while the page is visible; new rows flash once.
 */
export default function ActivityFeed({ initial, limit, feed, detailed }: Props) {
  const [activity, setActivity] = useState(initial)
  const [stale, setStale] = useState(false)
  const seen = useRef(new Set(initial.activity.map((call) => call.id)))
  const [fresh, setFresh] = useState<Set<number>>(new Set())

  useEffect(() => {
    const query = new URLSearchParams({ limit: String(limit), ...(feed ? { feed } : {}) })
    const refresh = async () => {
      if (document.hidden) return
      try {
        const next = await api<Activity>(`/activity?${query}`, { auth: false })
        const arrived = new Set(
          next.activity.filter((call) => !seen.current.has(call.id)).map((c) => c.id)
        )
        arrived.forEach((id) => seen.current.add(id))
        setFresh(arrived)
        setActivity(next)
        setStale(false)
      } catch {
        setStale(true)
      }
    }
    const timer = setInterval(refresh, site().polls.activityMs)
    return () => clearInterval(timer)
  }, [limit, feed])

  return (
    <div>
      {stale && (
        <p class="small muted" role="status">
          Cannot reach the server right now; showing the last known calls.
        </p>
      )}
      <ul class="activity-list" aria-live="polite" aria-relevant="additions" data-testid="activity">
        {activity.activity.map((call) => (
          <li key={call.id} class={fresh.has(call.id) ? 'fresh-row' : ''}>
            <span class="dot" aria-hidden="true" />
            <div>
              <div class="who">{call.agent_name}</div>
              <div class="what">
                bought <a href={feedPaths(call.feed).page}>{call.feed}</a> for{' '}
                <span class="price">{call.price_stx} STX</span>
                {detailed && (
                  <>
                    {' '}
                    · {call.response_ms} ms ·{' '}
                    {call.tx_hash === null ? (
                      'paid from credit'
                    ) : (
                      <a href={explorerTx(call.tx_hash)} rel="noopener noreferrer">
                        {call.tx_hash.slice(0, 10)}…
                      </a>
                    )}
                  </>
                )}
              </div>
            </div>
            <div class="when">{call.time_ago}</div>
          </li>
        ))}
        {activity.activity.length === 0 && <li class="muted">No paid calls yet.</li>}
      </ul>
    </div>
  )
}

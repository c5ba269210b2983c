import { type FirstPoll, SourceOutcome } from './source_outcome'
import { useState } from 'preact/hooks'
import { api } from '../lib/api'
import { emptyFeed, type FeedDraft, FeedFields, feedBody } from './feed_fields'
import { useSources } from './sources_context'
import { useProvider } from './provider_context'
import type { Feed } from './types'
import { Notice, Problem, useAction } from './ui'

interface Created {
  feed: Feed
  push_secret?: string
  first_poll?: FirstPoll
}

/** POST /providers/id/:id/feeds: a new feed in the provider's mode. */
export function NewFeedScreen() {
  const { provider, reload } = useProvider()
  const sources = useSources()
  const [draft, setDraft] = useState<FeedDraft>(() => emptyFeed(sources))
  const [created, setCreated] = useState<Created | null>(null)
  const create = useAction(async () => {
    const answer = await api<Created>(`/providers/id/${provider.id}/feeds`, {
      method: 'POST',
      body: feedBody(draft, provider.integration_mode, sources),
    })
    setCreated(answer)
    await reload()
  })

  if (created) {
    const feedPage = `/dashboard/p/${provider.id}/feeds/${created.feed.slug}`
    return (
      <div class="stack">
        <Notice kind="ok">
          <p>
            <strong>{created.feed.display_name} is live</strong> at <code>{created.feed.url}</code>.
          </p>
        </Notice>
        <SourceOutcome pushSecret={created.push_secret} firstPoll={created.first_poll} />
        <div class="row">
          <a class="btn btn-primary" href={feedPage}>
            Manage this feed
          </a>
          <a class="btn" href={`/dashboard/p/${provider.id}`}>
            Back to the overview
          </a>
        </div>
      </div>
    )
  }

  return (
    <form
      class="card"
      onSubmit={(event) => {
        event.preventDefault()
        create.run()
      }}
    >
      <p class="eyebrow">New feed</p>
      <h1>Add a feed</h1>
      <p class="muted">
        {provider.integration_mode === 'partner_bridge'
          ? `Tollbooth will call ${provider.partner_endpoint ?? 'your API'} at the path you give, signed, after each payment.`
          : 'Tollbooth keeps the latest copy of your data and serves it to buyers.'}
      </p>
      <FeedFields
        draft={draft}
        onChange={setDraft}
        mode={provider.integration_mode}
        error={create.error}
      />
      <Problem error={create.error} />
      <div class="actions">
        <button type="submit" class="btn btn-primary" disabled={create.busy}>
          {create.busy ? 'Creating…' : 'Create and go live'}
        </button>
      </div>
    </form>
  )
}

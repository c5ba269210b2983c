import { useCallback, useEffect, useState } from 'preact/hooks'
import { feedPaths } from '../../../app/feeds/feed_paths'
import { api } from '../lib/api'
import { relative, when } from '../lib/format'
import { draftOf, type FeedDraft, FeedFields, sourceBody } from './feed_fields'
import { sourceOf, useSources } from './sources_context'
import { DeclarationCard } from './declaration_card'
import { useProvider } from './provider_context'
import type { Feed, SourceHealth } from './types'
import { ConfirmButton, Notice, Problem, SecretReveal, useAction } from './ui'
import { type FirstPoll, SourceOutcome } from './source_outcome'
import { type Verdict, VerdictNotice } from './verdicts'

/**
 * One feed: its settings, price and state, its source (with the mirror's
 * health, the source test, the upload and the push secret), and deletion.
 * Starts from the feed in the provider's view; a save shows the feed its
 * answer carries, an upload reads GET …/feeds/:slug (its answer is the snapshot).
 */
export function FeedScreen({ slug }: { slug: string }) {
  const { provider } = useProvider()
  const sources = useSources()
  const listed = provider.feeds.find((feed) => feed.slug === slug) ?? null
  const [feed, setFeed] = useState<Feed | null>(listed)
  const path = `/providers/id/${provider.id}/feeds/${encodeURIComponent(slug)}`

  const refresh = useCallback(async () => {
    const { feed: fresh } = await api<{ feed: Feed }>(path)
    setFeed(fresh)
  }, [path])
  useEffect(() => setFeed((current) => listed ?? current), [listed])

  if (!feed) {
    return (
      <Notice kind="bad">
        <p>
          This provider has no feed “{slug}”.{' '}
          <a href={`/dashboard/p/${provider.id}`}>Back to the overview</a>
        </p>
      </Notice>
    )
  }
  const mirror = provider.integration_mode === 'hosted_mirror'
  const delivery = mirror ? sourceOf(sources, feed.source?.type)?.delivery : undefined
  const polled = delivery === 'polled'
  return (
    <div class="stack">
      <div class="page-head">
        <div>
          <p class="eyebrow">Feed</p>
          <h1>{feed.display_name}</h1>
          <p>
            <span class={`status status-${feed.status}`}>
              {feed.status === 'active' ? 'live' : 'paused'}
            </span>{' '}
            · <code>{feed.url}</code>
          </p>
        </div>
        <a class="btn" href={feedPaths(`${provider.handle}/${feed.slug}`).page}>
          Public page ↗
        </a>
      </div>
      {mirror && (feed.source_health || polled) && (
        <HealthCard health={feed.source_health ?? null} path={path} testable={polled} />
      )}
      {delivery === 'uploaded' && <UploadCard path={path} onUploaded={refresh} />}
      <StateCard feed={feed} path={path} onSaved={setFeed} />
      <SettingsCard feed={feed} path={path} onSaved={setFeed} />
      <SourceCard feed={feed} path={path} onSaved={setFeed} />
      <DeclarationCard feed={feed} path={path} onSaved={setFeed} />
      {delivery === 'pushed' && (
        <PushSecretCard path={path} handle={provider.handle} slug={feed.slug} />
      )}
      <DeleteCard feed={feed} path={path} providerId={provider.id} />
    </div>
  )
}

interface CardProps {
  feed: Feed
  path: string
  /** The feed as the save's answer shows it. */
  onSaved: (feed: Feed) => void
}

function SettingsCard({ feed, path, onSaved }: CardProps) {
  const { provider } = useProvider()
  const sources = useSources()
  const [draft, setDraft] = useState<FeedDraft>(() => draftOf(feed, sources))
  const [saved, setSaved] = useState(false)
  const save = useAction(async () => {
    const answer = await api<{ feed: Feed }>(path, {
      method: 'PATCH',
      body: {
        display_name: draft.display_name.trim(),
        description: draft.description.trim(),
        price_stx: draft.price_stx.trim(),
      },
    })
    setSaved(true)
    onSaved(answer.feed)
  })
  return (
    <form
      class="card"
      aria-labelledby="settings-title"
      onSubmit={(event) => {
        event.preventDefault()
        setSaved(false)
        save.run()
      }}
    >
      <h2 id="settings-title">Name and price</h2>
      <FeedFields
        draft={draft}
        onChange={setDraft}
        mode={provider.integration_mode}
        error={save.error}
        existing
        idPrefix="edit"
        part="listing"
      />
      <Problem error={save.error} />
      {saved && !save.error && (
        <Notice kind="ok">Saved. Buyers see the new settings on their next call.</Notice>
      )}
      <div class="actions">
        <button type="submit" class="btn btn-primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  )
}

function StateCard({ feed, path, onSaved }: CardProps) {
  const active = feed.status === 'active'
  const toggle = useAction(async () => {
    const answer = await api<{ feed: Feed }>(`${path}/state`, {
      method: 'PATCH',
      body: { active: !active },
    })
    onSaved(answer.feed)
  })
  return (
    <section class="card" aria-labelledby="state-title">
      <div class="spread">
        <div>
          <h2 id="state-title">{active ? 'Live' : 'Paused'}</h2>
          <p class="muted" style="margin:0">
            {active
              ? 'Buyers can call this feed. Pausing answers them “unavailable” and charges nothing.'
              : 'Buyers get “unavailable” and pay nothing until you resume it.'}
          </p>
        </div>
        <button
          type="button"
          class={`btn ${active ? '' : 'btn-primary'}`}
          onClick={() => toggle.run()}
          disabled={toggle.busy}
        >
          {active ? 'Pause feed' : 'Resume feed'}
        </button>
      </div>
      <Problem error={toggle.error} />
    </section>
  )
}

/** What a source edit answers: the feed, the new push secret, the first fetch. */
interface SourceChange {
  feed: Feed
  push_secret?: string
  first_poll?: FirstPoll
}

function SourceCard({ feed, path, onSaved }: CardProps) {
  const { provider } = useProvider()
  const sources = useSources()
  const [draft, setDraft] = useState<FeedDraft>(() => draftOf(feed, sources))
  const [saved, setSaved] = useState<SourceChange | null>(null)
  const save = useAction(async () => {
    const answer = await api<SourceChange>(path, {
      method: 'PATCH',
      body: sourceBody(draft, provider.integration_mode, sources),
    })
    setSaved(answer)
    onSaved(answer.feed)
  })
  const label = sourceOf(sources, feed.source?.type)?.label
  return (
    <form
      class="card"
      aria-labelledby="source-title"
      onSubmit={(event) => {
        event.preventDefault()
        setSaved(null)
        save.run()
      }}
    >
      <h2 id="source-title">Source</h2>
      <p class="muted">
        {provider.integration_mode === 'partner_bridge'
          ? `Tollbooth calls ${provider.partner_endpoint}${feed.source_path ?? ''} after each payment, signed with your secret.`
          : `Now: ${label ?? feed.source_type}${feed.source?.url ? ` at ${feed.source.url}` : ''}.`}
      </p>
      <FeedFields
        draft={draft}
        onChange={setDraft}
        mode={provider.integration_mode}
        error={save.error}
        part="source"
        idPrefix="source"
      />
      <Problem error={save.error} />
      {saved && !save.error && (
        <>
          <Notice kind="ok">Source saved.</Notice>
          <SourceOutcome pushSecret={saved.push_secret} firstPoll={saved.first_poll} />
        </>
      )}
      <div class="actions">
        <button type="submit" class="btn" disabled={save.busy}>
          {save.busy ? 'Saving…' : 'Save source'}
        </button>
      </div>
    </form>
  )
}

/** A mirrored source's health in words, and (for a polled URL) the test that fetches it now. */
function HealthCard(props: { health: SourceHealth | null; path: string; testable: boolean }) {
  const { health } = props
  const snapshot = health?.snapshot ?? null
  const [verdict, setVerdict] = useState<Verdict | null>(null)
  const test = useAction(async () => {
    setVerdict(null)
    setVerdict(await api<Verdict>(`${props.path}/source/test`, { method: 'POST' }))
  })
  return (
    <section class="card" aria-labelledby="health-title" data-testid="source-health">
      <div class="card-title">
        <h2 id="health-title">Source health</h2>
        {props.testable && (
          <button
            type="button"
            class="btn btn-small"
            onClick={() => test.run()}
            disabled={test.busy}
          >
            {test.busy ? 'Testing…' : 'Test the source now'}
          </button>
        )}
      </div>
      {verdict && <VerdictNotice verdict={verdict} />}
      <Problem error={test.error} />
      {health?.last_error ? (
        <Notice kind="bad">
          <p>
            <strong>The last fetch failed:</strong> {health.last_error}
          </p>
          <p class="small">
            {health.consecutive_failures} failed{' '}
            {health.consecutive_failures === 1 ? 'attempt' : 'attempts'} in a row.
            {snapshot
              ? ' Buyers get the last good copy meanwhile.'
              : ' Buyers see “No data yet” and are asked no payment until a fetch works.'}
          </p>
        </Notice>
      ) : (
        <Notice kind={snapshot ? 'ok' : undefined}>
          <p>
            {snapshot
              ? 'The source answers; buyers get the current copy.'
              : 'No copy yet: buyers see “No data yet” and are asked no payment until one arrives.'}
          </p>
        </Notice>
      )}
      {health && (
        <dl class="facts">
          <dt>Last success</dt>
          <dd>
            {health.last_success_at
              ? `${when(health.last_success_at)} (${relative(health.last_success_at)})`
              : 'never'}
          </dd>
          {props.testable && (
            <>
              <dt>Next fetch</dt>
              <dd>
                {health.next_poll_at
                  ? `${when(health.next_poll_at)} (${relative(health.next_poll_at)})`
                  : '—'}
              </dd>
            </>
          )}
          <dt>Current copy</dt>
          <dd>
            {snapshot
              ? `version ${snapshot.version}, ${snapshot.size_bytes.toLocaleString()} bytes, fetched ${relative(snapshot.fetched_at)}`
              : 'none yet'}
          </dd>
          {snapshot && (
            <>
              <dt>Data as of</dt>
              <dd>{when(new Date(snapshot.last_updated).toISOString())}</dd>
              <dt>Content hash</dt>
              <dd class="mono small">{snapshot.content_hash}</dd>
            </>
          )}
        </dl>
      )}
    </section>
  )
}

function UploadCard({ path, onUploaded }: { path: string; onUploaded: () => Promise<void> }) {
  const [text, setText] = useState('')
  const [parseProblem, setParseProblem] = useState<string | null>(null)
  const [stored, setStored] = useState<{ version: number; size_bytes: number } | null>(null)
  // The document goes as written: re-serialising it in the page could change it (1e400 → null).
  const upload = useAction(async (document: string) => {
    const answer = await api<{ snapshot: { version: number; size_bytes: number } }>(
      `${path}/upload`,
      { method: 'POST', jsonText: document }
    )
    setStored(answer.snapshot)
    await onUploaded()
  })
  const send = () => {
    setStored(null)
    try {
      JSON.parse(text)
      setParseProblem(null)
      upload.run(text)
    } catch (error) {
      setParseProblem(`This is not valid JSON: ${(error as Error).message}`)
    }
  }
  return (
    <section class="card" aria-labelledby="upload-title">
      <h2 id="upload-title">Upload a new version</h2>
      <p class="muted">
        Paste the JSON document, or choose a file. Buyers get it from their next call.
      </p>
      <div class="field">
        <label for="upload-file">JSON file</label>
        <input
          id="upload-file"
          type="file"
          accept="application/json,.json"
          onChange={async (event) => setText((await event.currentTarget.files?.[0]?.text()) ?? '')}
        />
      </div>
      <div class="field">
        <label for="upload-text">Or paste it</label>
        <textarea
          id="upload-text"
          class="mono"
          value={text}
          rows={8}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        {parseProblem && (
          <span class="problem" role="alert">
            {parseProblem}
          </span>
        )}
      </div>
      <Problem error={upload.error} />
      {stored && (
        <Notice kind="ok">
          Stored as version {stored.version} ({stored.size_bytes.toLocaleString()} bytes).
        </Notice>
      )}
      <div class="actions">
        <button
          type="button"
          class="btn btn-primary"
          onClick={send}
          disabled={upload.busy || !text.trim()}
        >
          {upload.busy ? 'Uploading…' : 'Upload'}
        </button>
      </div>
    </section>
  )
}

function PushSecretCard({ path, handle, slug }: { path: string; handle: string; slug: string }) {
  const [secret, setSecret] = useState<string | null>(null)
  const rotate = useAction(async () => {
    const rotated = await api<{ push_secret: string }>(`${path}/push-secret/rotate`, {
      method: 'POST',
    })
    setSecret(rotated.push_secret)
  })
  return (
    <section class="card" aria-labelledby="push-title">
      <h2 id="push-title">Pushing documents</h2>
      <p class="muted">
        Your system sends each new version with{' '}
        <code>
          POST /ingest/{handle}/{slug}
        </code>
        , signed with the push secret (Tollbooth signature v1, as in docs/partner-bridge.md).
      </p>
      {secret && (
        <SecretReveal title="Your new push secret" secret={secret}>
          <p class="small">The previous secret no longer works.</p>
        </SecretReveal>
      )}
      <Problem error={rotate.error} />
      <ConfirmButton
        label="Rotate push secret"
        title="Rotate the push secret?"
        confirmLabel="Rotate it"
        busy={rotate.busy}
        onConfirm={() => rotate.run()}
      >
        <p>
          The current secret stops working at once: pushes signed with it are refused until your
          system uses the new one.
        </p>
      </ConfirmButton>
    </section>
  )
}

function DeleteCard({ feed, path, providerId }: { feed: Feed; path: string; providerId: string }) {
  const remove = useAction(async () => {
    await api(path, { method: 'DELETE' })
    location.assign(`/dashboard/p/${providerId}`)
  })
  return (
    <section class="card" aria-labelledby="delete-title">
      <div class="spread">
        <div>
          <h2 id="delete-title">Delete this feed</h2>
          <p class="muted" style="margin:0">
            It leaves the marketplace; its history and earnings stay.
          </p>
        </div>
        <ConfirmButton
          label="Delete feed"
          title={`Delete ${feed.display_name}?`}
          confirmLabel="Delete feed"
          danger
          busy={remove.busy}
          onConfirm={() => remove.run()}
        >
          <p>
            Buyers can no longer call <code>{feed.url}</code>. Its address becomes free for a new
            feed.
          </p>
        </ConfirmButton>
      </div>
      <Problem error={remove.error} />
    </section>
  )
}

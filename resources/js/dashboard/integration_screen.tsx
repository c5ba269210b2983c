import { useState } from 'preact/hooks'
import { api } from '../lib/api'
import { when } from '../lib/format'
import { draftOf, type FeedDraft, FeedFields, sourceBody } from './feed_fields'
import { useSources } from './sources_context'
import { useProvider } from './provider_context'
import type { IntegrationMode, Provider } from './types'
import {
  ConfirmButton,
  TextField,
  Notice,
  Problem,
  SecretReveal,
  fieldProblem,
  useAction,
} from './ui'
import { type Verdict, VerdictNotice } from './verdicts'

const MODE_WORDS: Record<IntegrationMode, string> = {
  partner_bridge:
    'Partner Bridge: Tollbooth calls your API after each payment, signed with your secret.',
  hosted_mirror: 'Hosted Mirror: Tollbooth keeps a copy of your data and serves it to buyers.',
}

/** The integration: Partner Bridge's secret and handshake test, and switching mode. */
export function IntegrationScreen() {
  const { provider } = useProvider()
  const [secret, setSecret] = useState<string | null>(null)
  return (
    <div class="stack">
      <div class="page-head">
        <div>
          <p class="eyebrow">Integration</p>
          <h1>How buyers get your data</h1>
          <p>{MODE_WORDS[provider.integration_mode]}</p>
        </div>
      </div>
      {secret && (
        <SecretReveal title="Your new Partner Bridge secret" secret={secret}>
          <p class="small">
            Replace the old one in your API server's configuration now: the old one no longer works.
          </p>
        </SecretReveal>
      )}
      {provider.integration_mode === 'partner_bridge' && <PartnerBridgeCard onSecret={setSecret} />}
      <SwitchModeCard onSecret={setSecret} />
    </div>
  )
}

function PartnerBridgeCard({ onSecret }: { onSecret: (secret: string) => void }) {
  const { provider } = useProvider()
  const [verdict, setVerdict] = useState<Verdict | null>(null)
  const base = `/providers/id/${provider.id}`
  const test = useAction(async () => {
    setVerdict(null)
    setVerdict(await api<Verdict>(`${base}/hmac/test`, { method: 'POST' }))
  })
  const rotate = useAction(async () => {
    const rotated = await api<{ hmac_secret: string }>(`${base}/hmac/rotate`, { method: 'POST' })
    onSecret(rotated.hmac_secret)
  })
  return (
    <section class="card" aria-labelledby="bridge-title">
      <h2 id="bridge-title">Partner Bridge</h2>
      <dl class="facts" style="margin-bottom:16px">
        <dt>Your API</dt>
        <dd>
          <code>{provider.partner_endpoint}</code>
        </dd>
        <dt>Secret</dt>
        <dd>
          {provider.hmac_secret_issued_at
            ? `issued ${when(provider.hmac_secret_issued_at)}; it was shown once and is never shown again`
            : 'none'}
        </dd>
      </dl>
      <h3>Handshake test</h3>
      <p class="muted">
        We sign a request for your first feed's path exactly as a paid call would and tell you what
        your server said.
      </p>
      {verdict && <VerdictNotice verdict={verdict} />}
      <Problem error={test.error ?? rotate.error} />
      <div class="row">
        <button
          type="button"
          class="btn btn-primary"
          onClick={() => test.run()}
          disabled={test.busy}
        >
          {test.busy ? 'Testing…' : 'Run the handshake test'}
        </button>
        <ConfirmButton
          label="Rotate secret"
          title="Rotate your Partner Bridge secret?"
          confirmLabel="Rotate it"
          busy={rotate.busy}
          onConfirm={() => rotate.run()}
        >
          <p>
            The current secret stops working at once: paid calls fail (and charge nothing) until
            your server holds the new one, which is shown once on the next screen.
          </p>
        </ConfirmButton>
      </div>
    </section>
  )
}

function SwitchModeCard({ onSecret }: { onSecret: (secret: string) => void }) {
  const { provider, reload } = useProvider()
  const target: IntegrationMode =
    provider.integration_mode === 'partner_bridge' ? 'hosted_mirror' : 'partner_bridge'
  const live = provider.feeds
  const sources = useSources()
  const [endpoint, setEndpoint] = useState(provider.partner_endpoint ?? '')
  const [drafts, setDrafts] = useState<Record<string, FeedDraft>>(() =>
    Object.fromEntries(live.map((feed) => [feed.slug, draftOf(feed, sources)]))
  )
  const [switched, setSwitched] = useState(false)
  const change = useAction(async () => {
    const answer = await api<{ provider: Provider; hmac_secret?: string }>(
      `/providers/id/${provider.id}/mode`,
      {
        method: 'POST',
        body: {
          integration_mode: target,
          ...(target === 'partner_bridge' ? { partner_endpoint: endpoint.trim() } : {}),
          feeds: live.map((feed) => ({
            slug: feed.slug,
            ...sourceBody(drafts[feed.slug], target, sources),
          })),
        },
      }
    )
    if (answer.hmac_secret) onSecret(answer.hmac_secret)
    setSwitched(true)
    await reload()
  })
  const endpointProblem = fieldProblem(change.error, 'partner_endpoint')
  return (
    <form
      class="card"
      aria-labelledby="switch-title"
      onSubmit={(event) => {
        event.preventDefault()
        change.run()
      }}
    >
      <h2 id="switch-title">
        Switch to {target === 'partner_bridge' ? 'Partner Bridge' : 'Hosted Mirror'}
      </h2>
      <p class="muted">
        {MODE_WORDS[target]} Your handle, feeds, prices, earnings and history stay. Each live feed
        needs its new source below.
        {provider.integration_mode === 'partner_bridge' &&
          ' Your current secret stops working at once.'}
      </p>
      {switched && (
        <Notice kind="ok">Switched. Buyers are served the new way from their next call.</Notice>
      )}
      {target === 'partner_bridge' && (
        <TextField
          id="switch-endpoint"
          type="url"
          label="Your API's address"
          hint="The origin only, like https://api.example.com."
          problem={endpointProblem}
          value={endpoint}
          required
          onValue={setEndpoint}
        />
      )}
      {live.map((feed, index) => (
        <fieldset
          key={feed.slug}
          style="border:1px solid var(--line);border-radius:var(--radius-sm);padding:12px 16px;margin:0 0 12px"
        >
          <legend class="label" style="padding:0 6px">
            {feed.display_name}
          </legend>
          <FeedFields
            draft={drafts[feed.slug]}
            onChange={(draft) => setDrafts({ ...drafts, [feed.slug]: draft })}
            mode={target}
            error={change.error}
            prefix={`feeds.${index}.`}
            part="source"
            idPrefix={`switch-${feed.slug}`}
          />
        </fieldset>
      ))}
      <Problem error={change.error} />
      <div class="actions">
        <button type="submit" class="btn" disabled={change.busy}>
          {change.busy
            ? 'Switching…'
            : `Switch to ${target === 'partner_bridge' ? 'Partner Bridge' : 'Hosted Mirror'}`}
        </button>
      </div>
    </form>
  )
}

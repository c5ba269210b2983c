import { type FirstPoll, SourceOutcome } from './source_outcome'
import { useState } from 'preact/hooks'
import { ApiError, api } from '../lib/api'
import { emptyFeed, type FeedDraft, FeedFields, feedBody } from './feed_fields'
import { useSources } from './sources_context'
import { useHandleCheck } from './handle_check'
import { type ProfileDraft, ProfileFields, profileBody } from './profile_fields'
import type { Feed, IntegrationMode, Provider } from './types'
import { Notice, Problem, SecretReveal, TextField, fieldProblem, useAction } from './ui'

interface Registered {
  provider: Provider
  feed?: Feed
  hmac_secret?: string
  push_secret?: string
  first_poll?: FirstPoll
}

const STEPS = ['How it works', 'Your provider', 'First feed', 'Review']

/** Which step holds a refused field, to send the person back to it. */
function stepOfField(field: string) {
  if (field.startsWith('feed')) return 2
  if (field === 'integration_mode') return 0
  return 1
}

/**
 * Registration: the two integration modes in plain words, the provider with
 * its handle checked as it is typed, the first feed, then POST /providers.
 * The answer's secret is shown once, here, and kept nowhere: the address bar
 * already names the new provider's dashboard, so a reload shows that instead.
 */
export function RegisterWizard() {
  const [step, setStep] = useState(0)
  const [mode, setMode] = useState<IntegrationMode>('partner_bridge')
  const [handle, setHandle] = useState('')
  const [endpoint, setEndpoint] = useState('')
  const [profile, setProfile] = useState<ProfileDraft>({
    display_name: '',
    description: '',
    website: '',
    x_account: '',
  })
  const sources = useSources()
  const [feed, setFeed] = useState<FeedDraft>(() => emptyFeed(sources))
  const [done, setDone] = useState<Registered | null>(null)
  const handleCheck = useHandleCheck(handle.trim())

  const register = useAction(async () => {
    try {
      const registered = await api<Registered>('/providers', {
        method: 'POST',
        body: {
          handle: handle.trim(),
          ...profileBody(profile, undefined),
          integration_mode: mode,
          partner_endpoint: mode === 'partner_bridge' ? endpoint.trim() : undefined,
          feed: feedBody(feed, mode, sources),
        },
      })
      history.replaceState(null, '', `/dashboard/p/${registered.provider.id}`)
      setDone(registered)
    } catch (error) {
      if (error instanceof ApiError && error.fields.length > 0)
        setStep(stepOfField(error.fields[0].field))
      else if (error instanceof ApiError && error.code === 'handle_taken') setStep(1)
      throw error
    }
  })

  if (done) return <RegistrationDone registered={done} />

  const problem = (field: string) => fieldProblem(register.error, field)
  const handleProblem =
    problem('handle') ??
    (handleCheck.state === 'unavailable' ? handleCheck.message : undefined) ??
    (register.error instanceof ApiError && register.error.code === 'handle_taken'
      ? register.error.message
      : undefined)
  const next = (event: Event) => {
    event.preventDefault()
    setStep(step + 1)
  }

  return (
    <div style="max-width:760px;margin:0 auto">
      <p class="eyebrow">Register as a provider</p>
      <h1>Sell your data on Tollbooth</h1>
      <ol class="steps" aria-label="Registration steps">
        {STEPS.map((label, index) => (
          <li
            key={label}
            class={index < step ? 'done' : ''}
            aria-current={index === step ? 'step' : undefined}
          >
            {label}
          </li>
        ))}
      </ol>

      {step === 0 && (
        <form class="card" onSubmit={next}>
          <h2>How will buyers get your data?</h2>
          <p class="muted">
            Either way, buyers pay per call in STX and you keep 97% of every call. You can switch
            later.
          </p>
          <fieldset style="border:0;padding:0;margin:0">
            <legend class="visually-hidden">Integration mode</legend>
            <div class="choices">
              <label class="choice">
                <input
                  type="radio"
                  name="mode"
                  value="partner_bridge"
                  checked={mode === 'partner_bridge'}
                  onChange={() => setMode('partner_bridge')}
                />
                <strong>Partner Bridge: you run an API</strong>
                <p>
                  When a buyer has paid, Tollbooth calls your own API and passes your answer on.
                  Each call is signed with a secret only you and Tollbooth know, so your server can
                  tell our calls apart and skip its own paywall. Your data stays on your server,
                  always live.
                </p>
              </label>
              <label class="choice">
                <input
                  type="radio"
                  name="mode"
                  value="hosted_mirror"
                  checked={mode === 'hosted_mirror'}
                  onChange={() => setMode('hosted_mirror')}
                />
                <strong>Hosted Mirror: we host a copy</strong>
                <p>
                  You have the data but no server for it. Point us at a JSON file (a repository, a
                  storage bucket), push it to us, or upload it: we keep the latest copy and serve it
                  to buyers. Nothing to run.
                </p>
              </label>
            </div>
          </fieldset>
          <div class="actions">
            <button type="submit" class="btn btn-primary">
              Continue
            </button>
          </div>
        </form>
      )}

      {step === 1 && (
        <form class="card" onSubmit={next}>
          <h2>Your provider</h2>
          <TextField
            id="handle"
            label="Handle"
            hint="3 to 32 lowercase letters, digits and hyphens. Your feeds live at /feeds/p/<handle>/…; it cannot change later."
            problem={handleProblem}
            fine={handleCheck.state === 'available' ? `“${handle.trim()}” is available` : null}
            value={handle}
            required
            autocomplete="off"
            autocapitalize="none"
            spellcheck={false}
            onValue={(typed) => setHandle(typed.toLowerCase())}
          />
          {handleCheck.state === 'checking' && (
            <p class="small muted" role="status" style="margin-top:-8px">
              Checking…
            </p>
          )}
          <ProfileFields
            draft={profile}
            onChange={setProfile}
            error={register.error}
            idPrefix="profile"
          />
          {mode === 'partner_bridge' && (
            <TextField
              id="partner-endpoint"
              type="url"
              label="Your API's address"
              hint="The origin only, like https://api.example.com: no path, no trailing slash. Each feed adds its own path."
              problem={problem('partner_endpoint')}
              value={endpoint}
              required
              placeholder="https://api.example.com"
              onValue={setEndpoint}
            />
          )}
          <div class="actions">
            <button type="button" class="btn" onClick={() => setStep(0)}>
              Back
            </button>
            <button
              type="submit"
              class="btn btn-primary"
              disabled={handleCheck.state === 'unavailable'}
            >
              Continue
            </button>
          </div>
        </form>
      )}

      {step === 2 && (
        <form class="card" onSubmit={next}>
          <h2>Your first feed</h2>
          <p class="muted">
            It goes live as soon as you register. You can add more feeds, change prices or pause
            them later.
          </p>
          <FeedFields
            draft={feed}
            onChange={setFeed}
            mode={mode}
            error={register.error}
            prefix="feed."
          />
          <div class="actions">
            <button type="button" class="btn" onClick={() => setStep(1)}>
              Back
            </button>
            <button type="submit" class="btn btn-primary">
              Continue
            </button>
          </div>
        </form>
      )}

      {step === 3 && (
        <form
          class="card"
          onSubmit={(event) => {
            event.preventDefault()
            register.run()
          }}
        >
          <h2>Check and register</h2>
          <dl class="facts" style="margin-bottom:16px">
            <dt>Mode</dt>
            <dd>
              {mode === 'partner_bridge'
                ? 'Partner Bridge (your API)'
                : 'Hosted Mirror (we host a copy)'}
            </dd>
            <dt>Provider</dt>
            <dd>
              {profile.display_name} (@{handle})
            </dd>
            {mode === 'partner_bridge' && (
              <>
                <dt>Your API</dt>
                <dd>{endpoint}</dd>
              </>
            )}
            <dt>First feed</dt>
            <dd>
              {feed.display_name} at{' '}
              <code>
                /feeds/p/{handle}/{feed.slug}
              </code>
            </dd>
            <dt>Price</dt>
            <dd>{feed.price_stx} STX per call</dd>
          </dl>
          {mode === 'partner_bridge' && (
            <Notice kind="warn">
              <p>
                Registering creates your signing secret. It is shown <strong>once</strong>, on the
                next screen: have the configuration of your API server ready to paste it in.
              </p>
            </Notice>
          )}
          <Problem error={register.error} />
          <div class="actions">
            <button type="button" class="btn" onClick={() => setStep(2)}>
              Back
            </button>
            <button type="submit" class="btn btn-primary" disabled={register.busy}>
              {register.busy ? 'Registering…' : 'Register and go live'}
            </button>
          </div>
        </form>
      )}
    </div>
  )
}

function RegistrationDone({ registered }: { registered: Registered }) {
  const { provider, feed } = registered
  const dashboard = `/dashboard/p/${provider.id}`
  return (
    <div style="max-width:760px;margin:0 auto" class="stack">
      <Notice kind="ok">
        <p>
          <strong>{provider.display_name} is registered.</strong>{' '}
          {feed ? (
            <>
              Your feed is live at <code>{feed.url}</code>.
            </>
          ) : null}
        </p>
      </Notice>
      {registered.hmac_secret && (
        <SecretReveal title="Your Partner Bridge secret" secret={registered.hmac_secret}>
          <p class="small">
            Put it in your API server's configuration (for example <code>TOLLBOOTH_SECRET</code>)
            and verify each call with the <code>partner-verifier</code> package. Then run the
            handshake test under <a href={`${dashboard}/integration`}>Integration</a> to check both
            sides agree.
          </p>
        </SecretReveal>
      )}
      <SourceOutcome pushSecret={registered.push_secret} firstPoll={registered.first_poll} />
      <div class="row">
        <a class="btn btn-primary" href={dashboard}>
          {registered.hmac_secret || registered.push_secret
            ? 'I saved it: open my dashboard'
            : 'Open my dashboard'}
        </a>
      </div>
    </div>
  )
}

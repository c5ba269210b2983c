import { useEffect, useState } from 'preact/hooks'
import { api, errorMessage } from '../lib/api'
import { ManifestChecks, type ManifestReport } from '../lib/manifest_checks'
import { useProvider } from './provider_context'
import { type ProfileDraft, ProfileFields, profileBody } from './profile_fields'
import { Notice, Problem, useAction } from './ui'

/** The public profile (PATCH /providers/id/:id) and its manifest verification. */
export function ProfileScreen() {
  const { provider, reload } = useProvider()
  const [form, setForm] = useState<ProfileDraft>({
    display_name: provider.display_name,
    description: provider.description ?? '',
    website: provider.website ?? '',
    x_account: provider.x_account ?? '',
  })
  const [saved, setSaved] = useState(false)
  const save = useAction(async () => {
    await api(`/providers/id/${provider.id}`, {
      method: 'PATCH',
      body: profileBody(form, null),
    })
    setSaved(true)
    await reload()
  })
  return (
    <div class="stack">
      <div class="page-head">
        <div>
          <p class="eyebrow">Profile</p>
          <h1>Your public profile</h1>
          <p>
            What buyers see at{' '}
            <a href={`/market/providers/${provider.handle}`}>/market/providers/{provider.handle}</a>
            .
          </p>
        </div>
      </div>
      <form
        class="card"
        onSubmit={(event) => {
          event.preventDefault()
          setSaved(false)
          save.run()
        }}
      >
        <ProfileFields draft={form} onChange={setForm} error={save.error} idPrefix="profile" />
        <Problem error={save.error} />
        {saved && !save.error && <Notice kind="ok">Saved.</Notice>}
        <div class="actions">
          <button type="submit" class="btn btn-primary" disabled={save.busy}>
            {save.busy ? 'Saving…' : 'Save profile'}
          </button>
        </div>
      </form>
      <ManifestCard />
    </div>
  )
}

function ManifestCard() {
  const { provider } = useProvider()
  const [report, setReport] = useState<ManifestReport | null>(null)
  const [template, setTemplate] = useState<string | null>(null)
  const [problems, setProblems] = useState<string[]>([])
  // Each answer is shown on its own: a refused report (e.g. a 429) still leaves the template.
  const check = async () => {
    setProblems([])
    const [found, manifest] = await Promise.allSettled([
      api<ManifestReport>(`/providers/${provider.handle}/manifest`, { auth: false }),
      api<unknown>(`/providers/id/${provider.id}/manifest/template`),
    ])
    const failed: string[] = []
    if (found.status === 'fulfilled') setReport(found.value)
    else failed.push(`The check could not run: ${errorMessage(found.reason)}`)
    if (manifest.status === 'fulfilled') setTemplate(JSON.stringify(manifest.value, null, 2))
    else failed.push(`The template could not be loaded: ${errorMessage(manifest.reason)}`)
    setProblems(failed)
  }
  // The template lists the provider's feeds and website: fetched again when they change.
  useEffect(() => {
    check()
  }, [provider])
  return (
    <section class="card" aria-labelledby="manifest-title">
      <div class="card-title">
        <h2 id="manifest-title">Verified badge</h2>
        <button type="button" class="btn btn-small" onClick={check}>
          Check again
        </button>
      </div>
      <p class="muted">
        Serve this file, exactly as shown, at{' '}
        <code>
          {provider.website ? `${new URL(provider.website).origin}` : 'https://your-site'}
          /.well-known/tollbooth-feeds.json
        </code>{' '}
        and your profile shows a “verified” badge: proof that the listing is really yours.
      </p>
      {problems.map((problem) => (
        <Notice key={problem} kind="bad">
          {problem}
        </Notice>
      ))}
      {report && (
        <Notice kind={report.verified ? 'ok' : 'warn'}>
          <p>
            <strong>{report.verified ? 'Verified.' : 'Not verified yet.'}</strong>
          </p>
          <ManifestChecks checks={report.checks} />
        </Notice>
      )}
      {template && (
        <div class="code">
          <pre tabIndex={0} aria-label="Manifest template">
            <code>{template}</code>
          </pre>
        </div>
      )}
    </section>
  )
}

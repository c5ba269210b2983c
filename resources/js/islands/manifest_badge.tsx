import { useEffect, useState } from 'preact/hooks'
import { api, errorMessage } from '../lib/api'
import { ManifestChecks, type ManifestReport as Report } from '../lib/manifest_checks'

/**
 * The provider's manifest verification, fetched live by the public API
 * (GET /providers/:handle/manifest checks the provider's own site, so the
 * page does not wait for it).
 */
export default function ManifestBadge({
  handle,
  website,
}: {
  handle: string
  website: string | null
}) {
  const [report, setReport] = useState<Report | null>(null)
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    api<Report>(`/providers/${encodeURIComponent(handle)}/manifest`, { auth: false })
      .then(setReport)
      .catch((error) => setProblem(errorMessage(error)))
  }, [handle])

  if (problem)
    return (
      <span class="tag" title={problem}>
        Verification unavailable
      </span>
    )
  if (!report) {
    return (
      <span class="tag" role="status">
        <span class="spinner" aria-hidden="true" style="width:10px;height:10px" /> Checking
        manifest…
      </span>
    )
  }
  const label = report.verified
    ? '✓ Verified by its own website'
    : website
      ? 'Not verified: manifest missing or incomplete'
      : 'Not verified: no website'
  return (
    <details class="badge-details">
      <summary class={`tag ${report.verified ? 'tag-ok' : 'tag-warn'}`}>{label}</summary>
      <ManifestChecks checks={report.checks} class="check-list card small" />
    </details>
  )
}

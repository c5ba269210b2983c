/** One check of GET /providers/:handle/manifest (docs/api.md, "Provider manifest verification"). */
export interface ManifestCheck {
  name: string
  result: 'pass' | 'fail' | 'not_run'
  ok: boolean
  detail: string
}

export interface ManifestReport {
  manifest_url: string | null
  verified: boolean
  checks: ManifestCheck[]
}

const MARKS = { pass: '✓', fail: '✗', not_run: '–' }
const WORDS = { pass: 'passed', fail: 'failed', not_run: 'not run' }

/**
 * Each check by name with its result; a check not run (no manifest to
 * check) says only that, since manifest_present already says why.
 */
export function ManifestChecks({
  checks,
  class: className,
}: {
  checks: ManifestCheck[]
  class?: string
}) {
  return (
    <ul class={className ?? 'check-list small'}>
      {checks.map((check) => (
        <li key={check.name}>
          <span aria-hidden="true">{MARKS[check.result]}</span> <code>{check.name}</code>{' '}
          {WORDS[check.result]}
          {check.result === 'not_run' ? '' : `: ${check.detail}`}
        </li>
      ))}
    </ul>
  )
}

import { Notice } from './ui'

/** What a probe found (the handshake test, the mirror source test), in words. */
export interface Verdict {
  result: string
  message?: string
  upstream_status?: number | null
  probed_path?: string
  latency_ms?: number
}

const HEADLINES: Record<string, string> = {
  ok: 'It works.',
  secret_mismatch: 'Your server refused our signature: it does not hold the current secret.',
  path_mismatch: 'Your server has no route at this path (it answered 404).',
  bad_json: 'Your server answered, but not with JSON.',
  not_json: 'The source answered, but not with JSON.',
  timeout: 'No answer in time.',
  unreachable: 'Could not connect.',
  partner_error: 'Your server answered with an error.',
  http_error: 'The source answered with an error.',
  too_large: 'The document is too large.',
  refused_target: 'This address is not allowed (private, local or a port other than 443).',
}

export function VerdictNotice({ verdict }: { verdict: Verdict }) {
  const status = verdict.upstream_status
  const details = [
    verdict.probed_path ? `path ${verdict.probed_path}` : null,
    status ? `HTTP ${status}` : null,
    verdict.latency_ms !== undefined ? `${verdict.latency_ms} ms` : null,
  ].filter(Boolean)
  return (
    <Notice kind={verdict.result === 'ok' ? 'ok' : 'bad'}>
      <p data-testid="verdict">
        <strong>{HEADLINES[verdict.result] ?? `Result: ${verdict.result}.`}</strong>{' '}
        {verdict.message}
      </p>
      {details.length > 0 && <p class="small">{details.join(' · ')}</p>}
    </Notice>
  )
}

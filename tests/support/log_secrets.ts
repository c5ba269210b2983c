import { readFile } from 'node:fs/promises'

/**
 * Finds secrets in log text: the values a run knows (the platform key, the
 * app key) and every secret by its shape — Partner Bridge (`tbs_`) and push
 * (`tbp_`) secrets, credit tokens (`tbc_`), session tokens (`oat_<id>.<secret>`), private keys
 * (66 hex digits ending in the `01` compression flag; a compressed public key,
 * 02… or 03…, is not one), and full signed transactions (a hex run of 300
 * digits or more: a signed STX transfer is ~180 bytes). Long base64 runs are
 * decoded and searched too, as a `payment-signature` header carries its
 * transaction that way.
 */

export interface SecretFinding {
  line: number
  kind: string
  /** The first characters only: a report must not leak what it found. */
  excerpt: string
}

const SHAPES: Array<{ kind: string; pattern: RegExp }> = [
  { kind: 'Partner Bridge secret (tbs_)', pattern: /tbs_[A-Za-z0-9_-]{20,}/g },
  { kind: 'push secret (tbp_)', pattern: /tbp_[A-Za-z0-9_-]{20,}/g },
  { kind: 'credit token (tbc_)', pattern: /tbc_[A-Za-z0-9_-]{20,}/g },
  { kind: 'session token (oat_)', pattern: /oat_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{16,}/g },
  {
    kind: 'private key',
    pattern: /(?<![0-9a-fA-F])(?!0[23])[0-9a-fA-F]{64}01(?![0-9a-fA-F])/g,
  },
  { kind: 'signed transaction hex', pattern: /[0-9a-fA-F]{300,}/g },
]

const BASE64_RUN = /[A-Za-z0-9+/_-]{200,}={0,2}/g

function excerpt(value: string) {
  return `${value.slice(0, 8)}… (${value.length} chars)`
}

function findIn(text: string, known: Array<{ kind: string; value: string }>) {
  const found: Array<{ kind: string; excerpt: string }> = []
  for (const { kind, value } of known) {
    if (value && text.includes(value)) found.push({ kind, excerpt: excerpt(value) })
  }
  for (const { kind, pattern } of SHAPES) {
    for (const match of text.matchAll(pattern)) found.push({ kind, excerpt: excerpt(match[0]) })
  }
  return found
}

/** Every secret in `text`, line by line; `known` are exact values that must not appear. */
export function findSecrets(
  text: string,
  known: Array<{ kind: string; value: string }> = []
): SecretFinding[] {
  const findings: SecretFinding[] = []
  text.split('\n').forEach((content, index) => {
    const decoded = [...content.matchAll(BASE64_RUN)].map((match) =>
      Buffer.from(match[0], 'base64').toString('latin1')
    )
    for (const candidate of [content, ...decoded]) {
      for (const found of findIn(candidate, known)) findings.push({ line: index + 1, ...found })
    }
  })
  return findings
}

/** The secrets a test run knows by value: its configured keys. */
export function configuredSecrets(env: NodeJS.ProcessEnv) {
  return [
    { kind: 'PLATFORM_PRIVATE_KEY', value: env.PLATFORM_PRIVATE_KEY ?? '' },
    // The key without its compression flag is the same secret.
    { kind: 'PLATFORM_PRIVATE_KEY', value: (env.PLATFORM_PRIVATE_KEY ?? '').slice(0, 64) },
    { kind: 'APP_KEY', value: env.APP_KEY ?? '' },
  ]
}

/** Reads a log file (missing: nothing logged) and finds its secrets. */
export async function scanLogFile(path: string, known = configuredSecrets(process.env)) {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return ''
    throw error
  })
  return { lines: text ? text.split('\n').length - 1 : 0, findings: findSecrets(text, known) }
}

import proxyAddr from 'proxy-addr'

/**
 * Validators for start/env.ts. Each one receives the variable's name and raw
 * value and returns the parsed value or throws an Error whose message is the
 * one line an operator reads when the app refuses to start.
 */
type Rule<T> = (key: string, value?: string) => T

export type NodeEnvironment = 'development' | 'production' | 'test'

export function requiredIn<T>(
  nodeEnv: NodeEnvironment,
  environments: NodeEnvironment[],
  rule: Rule<T>
) {
  return (key: string, value?: string): T | undefined => {
    if (value === undefined || value === '') {
      if (environments.includes(nodeEnv)) {
        throw new Error(`${key} is required when NODE_ENV=${nodeEnv}`)
      }
      return undefined
    }
    return rule(key, value)
  }
}

export function optional<T>(rule: Rule<T>) {
  return (key: string, value?: string): T | undefined =>
    value === undefined || value === '' ? undefined : rule(key, value)
}

export const appKey: Rule<string> = (key, value = '') => {
  if (value.length < 32) throw new Error(`${key} must be at least 32 characters long`)
  return value
}

export const stacksNetwork: Rule<'mainnet' | 'testnet' | 'devnet'> = (key, value = '') => {
  if (value === 'mainnet' || value === 'testnet' || value === 'devnet') return value
  throw new Error(`${key} must be one of mainnet, testnet, devnet (got "${value}")`)
}

/** 32 bytes of hex, optionally followed by 01 (compressed public key flag). */
export const privateKey: Rule<string> = (key, value = '') => {
  if (/^[0-9a-f]{64}(01)?$/i.test(value)) return value.toLowerCase()
  throw new Error(
    `${key} must be a Stacks private key: 64 hex characters, optionally followed by 01`
  )
}

export function url(protocols: string[]): Rule<string> {
  return (key, value = '') => {
    let parsed: URL
    try {
      parsed = new URL(value)
    } catch {
      throw new Error(`${key} must be a URL`)
    }
    if (!protocols.includes(parsed.protocol.replace(/:$/, ''))) {
      throw new Error(`${key} must use one of: ${protocols.join(', ')}`)
    }
    return value.replace(/\/+$/, '')
  }
}

/** A whole number ≥ 1 (WEB_CONCURRENCY, DB_MAX_CONNECTIONS). */
export const positiveInteger: Rule<number> = (key, value = '') => {
  if (/^[1-9][0-9]{0,5}$/.test(value)) return Number(value)
  throw new Error(`${key} must be a whole number of at least 1 (got "${value}")`)
}

export const memoPrefix: Rule<string> = (key, value = '') => {
  if (/^[a-z0-9]{1,20}$/.test(value)) return value
  throw new Error(
    `${key} must be 1 to 20 lowercase letters or digits (the memo is capped at 34 bytes)`
  )
}

/**
 * The load balancers in front (TRUSTED_PROXIES): comma-separated addresses,
 * CIDR ranges or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`.
 */
export const proxyList: Rule<string[]> = (key, value = '') => {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  if (entries.length === 0) throw new Error(`${key} must list at least one address or range`)
  try {
    proxyAddr.compile(entries)
  } catch (error) {
    throw new Error(`${key} must list addresses or CIDR ranges: ${(error as Error).message}`)
  }
  return entries
}

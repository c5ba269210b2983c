import { ChainConfig } from '#chain/define_config'
import type { NetworkPreset } from '#chain/network'
import { bootedConfig } from '#core/injectable_config'

const chainConfig = bootedConfig(ChainConfig)

/** Where a message is valid: the service's PUBLIC_URL and the configured network. */
export interface SiwsOrigin {
  /** host[:port] of `uri`. */
  domain: string
  /** PUBLIC_URL. */
  uri: string
  /** 1 on mainnet, 2147483648 on testnet and devnet. */
  chainId: number
}

export interface SiwsMessage extends SiwsOrigin {
  address: string
  statement: string
  nonce: string
  issuedAt: Date
  expiresAt: Date
}

/** The origin messages are issued for and checked against: PUBLIC_URL on this network. */
export function siwsOrigin(uri: string, network: NetworkPreset): SiwsOrigin {
  return { domain: new URL(uri).host, uri, chainId: network.chainId }
}

/** The configured network, for the validators' address rule (VineJS rules take no injection). */
export function currentNetwork(): NetworkPreset {
  return chainConfig().network
}

/**
 * The Sign-In With Stacks text (CAIP-122 / EIP-4361 layout,
 * docs/api.md#sign-in-with-stacks-auth)
 * that a wallet signs with `stx_signMessage`. Lines are joined by "\n" with
 * no trailing newline; times are ISO 8601 in UTC with milliseconds.
 */
export function formatSiwsMessage(message: SiwsMessage): string {
  if (/[\r\n]/.test(message.statement) || /[\r\n]/.test(message.address)) {
    throw new Error('A sign-in statement or address cannot span lines')
  }
  return [
    `${message.domain} wants you to sign in with your Stacks account:`,
    message.address,
    '',
    message.statement,
    '',
    `URI: ${message.uri}`,
    'Version: 1',
    `Chain ID: ${message.chainId}`,
    `Nonce: ${message.nonce}`,
    `Issued At: ${message.issuedAt.toISOString()}`,
    `Expiration Time: ${message.expiresAt.toISOString()}`,
  ].join('\n')
}

/** The statement line of a message formatSiwsMessage wrote. */
export function statementOf(message: string): string | undefined {
  return message.split('\n')[3]
}

/**
 * The wallet and nonce of a message formatSiwsMessage wrote, sent back by a
 * client that signed it; null for any other text. What they name is only
 * trusted once the challenge with that nonce is found to hold this message.
 */
export function signerOf(message: string): { address: string; nonce: string } | null {
  const lines = message.split('\n')
  const nonce = /^Nonce: ([0-9a-f]{1,128})$/.exec(lines[8] ?? '')?.[1]
  const address = lines[1]
  if (lines.length !== 11 || !nonce || !address) return null
  return { address, nonce }
}

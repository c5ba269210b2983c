import { normaliseTxid } from '#chain/broadcast_outcome'
import type { ChainConfig } from '#chain/define_config'
import type { StacksNetworkName } from '#chain/network'

/**
 * A transaction's page: `{explorer_url}/txid/0x<txid>?chain=<mainnet|testnet>`. On the devnet
 * (testnet) the devnet's own page, which ignores `?chain=` (docs/devnet.md#transaction-pages);
 * so a devnet `.env` still naming the public explorer lands on testnet, not mainnet.
 */
export function explorerLink(chain: Pick<ChainConfig, 'explorerUrl' | 'network'>, txid: string) {
  const base = chain.explorerUrl.replace(/\/+$/, '')
  return `${base}/txid/0x${normaliseTxid(txid)}?chain=${chain.network.explorerChain}`
}

/**
 * Where transaction links go: `EXPLORER_URL` when set; otherwise the public explorer, except on
 * the devnet, whose transactions no public explorer knows: its node serves their pages itself.
 */
export function explorerUrlFor(
  network: StacksNetworkName,
  apiUrl: string,
  configured: string | undefined
) {
  return configured ?? (network === 'devnet' ? apiUrl : 'https://explorer.hiro.so')
}

import type { BuiltinFeedsSettings } from '#feeds/builtin/adapter'

/** Upper bound on wallets read per call, whatever the configuration says. */
const MAX_TRACKED_WALLETS = 10

export interface TrackedWallet {
  address: string
  label: string
}

/** The configured smart-money wallets (at most MAX_TRACKED_WALLETS), addresses lower-cased. */
export function trackedWallets(settings: BuiltinFeedsSettings): TrackedWallet[] {
  return settings.smartMoneyWallets
    .slice(0, MAX_TRACKED_WALLETS)
    .map(({ address, label }) => ({ address: address.toLowerCase(), label }))
}

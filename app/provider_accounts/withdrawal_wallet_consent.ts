import type { ChallengePurpose } from '#auth/sign_in_challenges'

/** A challenge a link needs signed: by which wallet, for what, naming what. */
export interface LinkChallenge {
  walletAddress: string
  purpose: ChallengePurpose
  statement: string
}

export interface LinkChallenges {
  /** Signed by the wallet being linked: it is the linker's own. */
  wallet: LinkChallenge
  /** Signed by the owner wallet; null when the wallet being linked is the owner wallet. */
  owner: LinkChallenge | null
}

/**
 * What linking `address` as the provider's withdrawal wallet takes — every
 * link, the first one or a change: the new wallet's signature, and the owner
 * wallet's signature of a statement naming the new address, so a session
 * token alone never decides where the earnings go. When the new wallet is the
 * owner wallet, its one signature is both. Each statement names the provider
 * and the address, and redeeming checks it, so a signature given for one
 * provider or address cannot link another. The nonce route issues these and
 * the link route redeems these: the rule lives here only.
 */
export function linkChallenges(
  provider: { handle: string; ownerWallet: string },
  address: string
): LinkChallenges {
  return {
    wallet: {
      walletAddress: address,
      purpose: 'link_wallet',
      statement: `Link ${address} as the withdrawal wallet of Tollbooth provider ${provider.handle}.`,
    },
    owner:
      address === provider.ownerWallet
        ? null
        : {
            walletAddress: provider.ownerWallet,
            purpose: 'approve_wallet',
            statement: `Approve ${address} as the withdrawal wallet of Tollbooth provider ${provider.handle}.`,
          },
  }
}

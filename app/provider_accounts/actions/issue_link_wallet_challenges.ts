import { inject } from '@adonisjs/core'
import { type IssuedChallenge, SignInChallenges } from '#auth/sign_in_challenges'
import type Provider from '#models/provider'
import { type LinkChallenge, linkChallenges } from '#provider_accounts/withdrawal_wallet_consent'

export interface LinkWalletChallenges {
  /** For the wallet being linked. */
  wallet: IssuedChallenge
  /** For the owner wallet, unless it is the wallet being linked. */
  owner: IssuedChallenge | null
}

/**
 * POST /providers/id/:id/link-wallet/nonce: the challenges a link of that
 * address needs signed (`linkChallenges`): the new wallet's and, unless the
 * new wallet is the owner wallet, the owner wallet's approval.
 */
@inject()
export class IssueLinkWalletChallenges {
  constructor(private challenges: SignInChallenges) {}

  async execute(provider: Provider, address: string): Promise<LinkWalletChallenges> {
    const needed = linkChallenges(provider, address)
    const issue = (challenge: LinkChallenge) =>
      this.challenges.issue(challenge.walletAddress, challenge)
    return {
      wallet: await issue(needed.wallet),
      owner: needed.owner ? await issue(needed.owner) : null,
    }
  }
}

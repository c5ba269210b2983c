import { inject } from '@adonisjs/core'
import { type IssuedChallenge, SignInChallenges } from '#auth/sign_in_challenges'
import { ownedProvider } from '#provider_accounts/provider_access'
import {
  changeWalletStatement,
  linkWalletStatement,
} from '#provider_accounts/withdrawal_wallet_statements'

export interface LinkWalletChallenges {
  /** For the wallet being linked. */
  wallet: IssuedChallenge
  /** For the owner wallet, when the request would replace an already linked wallet. */
  owner: IssuedChallenge | null
}

/**
 * POST /providers/id/:id/link-wallet/nonce: the challenge the new withdrawal
 * wallet signs and, when it would replace a linked wallet, the one the owner
 * wallet signs to consent to the change.
 */
@inject()
export class IssueLinkWalletChallenges {
  constructor(private challenges: SignInChallenges) {}

  async execute(
    providerId: string,
    wallet: string,
    address: string
  ): Promise<LinkWalletChallenges> {
    const provider = await ownedProvider(providerId, wallet)
    const linked = provider.linkedWithdrawalWallet
    return {
      wallet: await this.challenges.issue(address, {
        purpose: 'link_wallet',
        statement: linkWalletStatement(provider.handle, address),
      }),
      owner:
        linked === null || linked === address
          ? null
          : await this.challenges.issue(provider.ownerWallet, {
              purpose: 'change_wallet',
              statement: changeWalletStatement(provider.handle, address),
            }),
    }
  }
}

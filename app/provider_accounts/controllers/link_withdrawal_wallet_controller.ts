import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { LinkWithdrawalWallet } from '#provider_accounts/actions/link_withdrawal_wallet'
import { withdrawalWalletView } from '#provider_accounts/provider_views'
import { linkWalletValidator } from '#provider_accounts/validators'

/** POST /providers/id/:id/link-wallet: the signed challenges in, the linked wallet out. */
@inject()
export default class LinkWithdrawalWalletController {
  constructor(private linkWallet: LinkWithdrawalWallet) {}

  async handle({ auth, ownedProvider, request }: HttpContext) {
    const input = await request.validateUsing(linkWalletValidator)
    const user = auth.getUserOrFail()
    const provider = await this.linkWallet.execute(
      ownedProvider,
      { user, token: user.currentAccessToken! },
      input
    )
    return withdrawalWalletView(provider)
  }
}

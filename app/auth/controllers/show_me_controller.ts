import type { HttpContext } from '@adonisjs/core/http'
import Provider from '#models/provider'
import { providerIdentity } from '#provider_accounts/provider_views'

/** GET /auth/me: the signed-in wallet and the providers it owns. */
export default class ShowMeController {
  async handle({ auth }: HttpContext) {
    const user = auth.getUserOrFail()
    const providers = await Provider.query()
      .where('owner_wallet', user.walletAddress)
      .orderBy('created_at')
    return {
      user: { wallet_address: user.walletAddress },
      providers: providers.map((provider) => ({
        id: provider.id,
        ...providerIdentity(provider),
        status: provider.status,
      })),
    }
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { rotatePartnerSecret } from '#provider_accounts/actions/rotate_partner_secret'
import { SwitchIntegrationMode } from '#provider_accounts/actions/switch_integration_mode'
import { TestPartnerHandshake } from '#provider_accounts/actions/test_partner_handshake'
import { privateProviderView } from '#provider_accounts/provider_views'
import { switchModeValidator } from '#provider_accounts/validators'

/** Integration mode, the Partner Bridge secret and its handshake test. */
@inject()
export default class PartnerBridgeController {
  constructor(
    private switchIntegrationMode: SwitchIntegrationMode,
    private handshake: TestPartnerHandshake
  ) {}

  async switchMode({ auth, params, request }: HttpContext) {
    const input = await request.validateUsing(switchModeValidator)
    const { provider, feeds, hmacSecret } = await this.switchIntegrationMode.execute(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      input
    )
    return {
      provider: privateProviderView(provider, feeds),
      ...(hmacSecret ? { hmac_secret: hmacSecret } : {}),
    }
  }

  async rotate({ auth, params }: HttpContext) {
    return {
      hmac_secret: await rotatePartnerSecret(String(params.id), auth.getUserOrFail().walletAddress),
    }
  }

  async test({ auth, params }: HttpContext) {
    return this.handshake.execute(String(params.id), auth.getUserOrFail().walletAddress)
  }
}

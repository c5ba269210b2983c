import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { RotatePartnerSecret } from '#provider_accounts/actions/rotate_partner_secret'
import { SwitchIntegrationMode } from '#provider_accounts/actions/switch_integration_mode'
import { TestPartnerHandshake } from '#provider_accounts/actions/test_partner_handshake'
import { OwnerViews } from '#provider_accounts/owner_views'
import { FirstPoll } from '#feeds/first_poll'
import { switchModeValidator } from '#provider_accounts/validators'

/**
 * Integration mode, the Partner Bridge secret and its handshake test. A mode
 * switch answers the secrets it issued (once) and its polled feeds' first polls.
 */
@inject()
export default class PartnerBridgeController {
  constructor(
    private switchIntegrationMode: SwitchIntegrationMode,
    private rotatePartnerSecret: RotatePartnerSecret,
    private handshake: TestPartnerHandshake,
    private firstPoll: FirstPoll,
    private views: OwnerViews
  ) {}

  async switchMode({ ownedProvider, request }: HttpContext) {
    const input = await request.validateUsing(switchModeValidator)
    const { provider, feeds, hmacSecret, pushSecrets } = await this.switchIntegrationMode.execute(
      ownedProvider,
      input
    )
    const firstPolls = await this.firstPoll.ofEach(feeds)
    return {
      provider: await this.views.provider(provider, feeds),
      ...(hmacSecret ? { hmac_secret: hmacSecret } : {}),
      ...(Object.keys(pushSecrets).length > 0 ? { push_secrets: pushSecrets } : {}),
      ...(Object.keys(firstPolls).length > 0 ? { first_polls: firstPolls } : {}),
    }
  }

  async rotate({ ownedProvider }: HttpContext) {
    return { hmac_secret: await this.rotatePartnerSecret.execute(ownedProvider) }
  }

  async test({ ownedProvider }: HttpContext) {
    return this.handshake.execute(ownedProvider)
  }
}

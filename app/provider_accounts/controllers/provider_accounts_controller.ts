import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { FirstPoll } from '#feeds/first_poll'
import Provider from '#models/provider'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { RegisterProvider } from '#provider_accounts/actions/register_provider'
import { UpdateProviderProfile } from '#provider_accounts/actions/update_provider_profile'
import { OwnerViews } from '#provider_accounts/owner_views'
import { registerProviderValidator, updateProfileValidator } from '#provider_accounts/validators'

/** Registration, profile edits and the owner's private views. */
@inject()
export default class ProviderAccountsController {
  constructor(
    private feeds: ManageFeeds,
    private register: RegisterProvider,
    private updateProfile: UpdateProviderProfile,
    private firstPoll: FirstPoll,
    private views: OwnerViews
  ) {}

  async store({ auth, request, response }: HttpContext) {
    const input = await request.validateUsing(registerProviderValidator)
    const wallet = auth.getUserOrFail().walletAddress
    const { provider, feed, hmacSecret, pushSecret } = await this.register.execute(wallet, input)
    const firstPoll = feed ? await this.firstPoll.of(feed) : undefined
    return response.status(201).send({
      provider: await this.views.provider(provider, feed ? [feed] : []),
      ...(feed ? { feed: await this.views.feed(provider, feed) } : {}),
      ...(firstPoll ? { first_poll: firstPoll } : {}),
      ...(hmacSecret ? { hmac_secret: hmacSecret } : {}),
      ...(pushSecret ? { push_secret: pushSecret } : {}),
    })
  }

  async mine({ auth }: HttpContext) {
    const providers = await Provider.query()
      .where('owner_wallet', auth.getUserOrFail().walletAddress)
      .preload('feeds', (feeds) =>
        feeds.whereNull('deleted_at').orderBy('created_at').orderBy('slug')
      )
      .orderBy('created_at')
    return {
      providers: await Promise.all(
        providers.map((provider) => this.views.provider(provider, provider.feeds))
      ),
    }
  }

  async show({ ownedProvider: provider }: HttpContext) {
    return { provider: await this.views.provider(provider, await this.feeds.liveFeeds(provider)) }
  }

  async update({ ownedProvider, request }: HttpContext) {
    const patch = await request.validateUsing(updateProfileValidator)
    const { provider, feeds } = await this.updateProfile.execute(ownedProvider, patch)
    return { provider: await this.views.provider(provider, feeds) }
  }
}

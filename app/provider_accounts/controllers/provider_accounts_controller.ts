import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import Provider from '#models/provider'
import { RegisterProvider } from '#provider_accounts/actions/register_provider'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { UpdateProviderProfile } from '#provider_accounts/actions/update_provider_profile'
import { ownedProvider } from '#provider_accounts/provider_access'
import { privateFeedView, privateProviderView } from '#provider_accounts/provider_views'
import { registerProviderValidator, updateProfileValidator } from '#provider_accounts/validators'
import { FirstPoll } from '#feeds/first_poll'
import { FeedSnapshots } from '#feeds/feed_snapshots'

/** Registration, profile edits and the owner's private views. */
@inject()
export default class ProviderAccountsController {
  constructor(
    private feeds: ManageFeeds,
    private register: RegisterProvider,
    private updateProfile: UpdateProviderProfile,
    private firstPoll: FirstPoll,
    private snapshots: FeedSnapshots
  ) {}

  async store({ auth, request, response }: HttpContext) {
    const input = await request.validateUsing(registerProviderValidator)
    const wallet = auth.getUserOrFail().walletAddress
    const { provider, feed, hmacSecret } = await this.register.execute(wallet, input)
    const firstPoll = feed ? await this.firstPoll.of(feed) : undefined
    return response.status(201).send({
      provider: privateProviderView(provider, feed ? [feed] : []),
      ...(feed ? { feed: privateFeedView(provider, feed) } : {}),
      ...(firstPoll ? { first_poll: firstPoll } : {}),
      ...(hmacSecret ? { hmac_secret: hmacSecret } : {}),
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
      providers: providers.map((provider) => privateProviderView(provider, provider.feeds)),
    }
  }

  async show({ auth, params }: HttpContext) {
    const provider = await ownedProvider(String(params.id), auth.getUserOrFail().walletAddress)
    const feeds = await this.feeds.liveFeeds(provider)
    const health = await this.snapshots.healthOf(feeds.map((feed) => feed.id))
    return { provider: privateProviderView(provider, feeds, health) }
  }

  async update({ auth, params, request }: HttpContext) {
    const patch = await request.validateUsing(updateProfileValidator)
    const { provider, feeds } = await this.updateProfile.execute(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      patch
    )
    return { provider: privateProviderView(provider, feeds) }
  }
}

import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { FirstPoll } from '#feeds/first_poll'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { OwnerViews } from '#provider_accounts/owner_views'
import { ownedFeed } from '#provider_accounts/provider_access'
import {
  createFeedValidator,
  feedStateValidator,
  updateFeedValidator,
} from '#provider_accounts/validators'

/**
 * The owner's feed management: create, show, edit, pause/resume, delete. A
 * new or changed polled source is fetched once at once (`first_poll`); a
 * new push source's secret is in this answer only (`push_secret`).
 */
@inject()
export default class ProviderFeedsController {
  constructor(
    private feeds: ManageFeeds,
    private firstPoll: FirstPoll,
    private views: OwnerViews
  ) {}

  async store({ auth, params, request, response }: HttpContext) {
    const input = await request.validateUsing(createFeedValidator)
    const { provider, feed, pushSecret } = await this.feeds.create(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      input
    )
    const firstPoll = await this.firstPoll.of(feed)
    return response.status(201).send({
      feed: await this.views.feed(provider, feed),
      ...(firstPoll ? { first_poll: firstPoll } : {}),
      ...(pushSecret ? { push_secret: pushSecret } : {}),
    })
  }

  async show({ auth, params }: HttpContext) {
    const { provider, feed } = await ownedFeed(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      String(params.slug)
    )
    return { feed: await this.views.feed(provider, feed) }
  }

  async update({ auth, params, request }: HttpContext) {
    const patch = await request.validateUsing(updateFeedValidator)
    const { provider, feed, pushSecret, changesSource } = await this.feeds.update(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      String(params.slug),
      patch
    )
    const firstPoll = changesSource ? await this.firstPoll.of(feed) : undefined
    return {
      feed: await this.views.feed(provider, feed),
      ...(firstPoll ? { first_poll: firstPoll } : {}),
      ...(pushSecret ? { push_secret: pushSecret } : {}),
    }
  }

  async setState({ auth, params, request }: HttpContext) {
    const { active } = await request.validateUsing(feedStateValidator)
    const { provider, feed } = await this.feeds.setActive(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      String(params.slug),
      active
    )
    return { feed: await this.views.feed(provider, feed) }
  }

  async destroy({ auth, params, response }: HttpContext) {
    await this.feeds.remove(
      String(params.id),
      auth.getUserOrFail().walletAddress,
      String(params.slug)
    )
    return response.noContent()
  }
}

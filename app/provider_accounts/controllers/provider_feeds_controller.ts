import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { FirstPoll } from '#feeds/first_poll'
import { ManageFeeds } from '#provider_accounts/actions/manage_feeds'
import { OwnerViews } from '#provider_accounts/owner_views'
import { liveFeedOf } from '#provider_accounts/provider_access'
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

  async store({ ownedProvider, request, response }: HttpContext) {
    const input = await request.validateUsing(createFeedValidator)
    const { provider, feed, pushSecret } = await this.feeds.create(ownedProvider, input)
    const firstPoll = await this.firstPoll.of(feed)
    return response.status(201).send({
      feed: await this.views.feed(provider, feed),
      ...(firstPoll ? { first_poll: firstPoll } : {}),
      ...(pushSecret ? { push_secret: pushSecret } : {}),
    })
  }

  async show({ ownedProvider, params }: HttpContext) {
    const feed = await liveFeedOf(ownedProvider, String(params.slug))
    return { feed: await this.views.feed(ownedProvider, feed) }
  }

  async update({ ownedProvider, params, request }: HttpContext) {
    const patch = await request.validateUsing(updateFeedValidator)
    const { provider, feed, pushSecret, changesSource } = await this.feeds.update(
      ownedProvider,
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

  async setState({ ownedProvider, params, request }: HttpContext) {
    const { active } = await request.validateUsing(feedStateValidator)
    const { provider, feed } = await this.feeds.setActive(
      ownedProvider,
      String(params.slug),
      active
    )
    return { feed: await this.views.feed(provider, feed) }
  }

  async destroy({ ownedProvider, params, response }: HttpContext) {
    await this.feeds.remove(ownedProvider, String(params.slug))
    return response.noContent()
  }
}

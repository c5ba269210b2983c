import router from '@adonisjs/core/services/router'
import {
  listResourcesValidator,
  providerFeedsValidator,
  searchResourcesValidator,
} from '#discovery/validators'

const ListProviderFeedsController = () =>
  import('#discovery/controllers/list_provider_feeds_controller')
const ListDiscoveryResourcesController = () =>
  import('#discovery/controllers/list_discovery_resources_controller')
const SearchDiscoveryResourcesController = () =>
  import('#discovery/controllers/search_discovery_resources_controller')
const ShowWellKnownX402Controller = () =>
  import('#discovery/controllers/show_well_known_x402_controller')
const ShowLlmsTxtController = () => import('#discovery/controllers/show_llms_txt_controller')

/** Beside /registry/feeds, which lists the built-in feeds as the spec has it. */
router
  .get('/registry/provider-feeds', [ListProviderFeedsController, 'handle'])
  .accepts({ query: providerFeedsValidator })
  .as('registry.provider_feeds')

/** The facilitator's discovery API, as @x402/extensions' withBazaar client calls it. */
router
  .group(() => {
    router
      .get('resources', [ListDiscoveryResourcesController, 'handle'])
      .accepts({ query: listResourcesValidator })
      .as('resources')
    router
      .get('search', [SearchDiscoveryResourcesController, 'handle'])
      .accepts({ query: searchResourcesValidator })
      .as('search')
  })
  .prefix('/facilitator/discovery')
  .as('facilitator.discovery')

router.get('/.well-known/x402', [ShowWellKnownX402Controller, 'handle']).as('well_known.x402')
router.get('/llms.txt', [ShowLlmsTxtController, 'handle']).as('llms_txt')

import app from '@adonisjs/core/services/app'

/**
 * The base of a domain's config class: an instance holds the values its
 * config file defines, and, being a class, can be bound in the container and
 * taken as a constructor argument by `@inject()` classes.
 *
 *   export class ChainConfig extends injectableConfig<ChainConfigValues>() {}
 */
export function injectableConfig<Values extends object>() {
  return class {
    constructor(values: Values) {
      Object.assign(this, values)
    }
  } as new (values: Values) => Values
}

/**
 * A domain's bound config for the plain functions the container does not
 * construct (VineJS rules, Edge globals, the throttle middleware): resolved
 * once the app has booted, as @adonisjs/core's services are. The instance is
 * the one every `@inject()` class receives, so a test that changes one of its
 * values (tests/support/config.ts) changes it for both. A container swap of
 * the class would not reach these functions: tests never swap a config class.
 */
export function bootedConfig<Config extends object>(
  Binding: abstract new (...args: any[]) => Config
): () => Config {
  let config: Config | undefined
  void app.booted(async () => {
    config = await app.container.make(Binding)
  })
  return () => {
    if (!config) throw new Error(`${Binding.name} is read before the app has booted`)
    return config
  }
}

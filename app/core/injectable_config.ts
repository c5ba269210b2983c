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

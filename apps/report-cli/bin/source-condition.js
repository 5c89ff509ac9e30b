// Module resolve hook: adds the workspace's source export condition to every resolution.
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, { ...context, conditions: [...context.conditions, '@orgreport/source'] });
}

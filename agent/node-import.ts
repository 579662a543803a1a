interface NodeProcess {
  cwd(): string;
  getBuiltinModule?(id: string): unknown;
}

/**
 * `import(specifier)` for modules only Node has (`ws`, `node:*`, Node-only entry points), hidden
 * from bundlers, which would pull them into browser builds, and from Hermes (React Native), whose
 * syntax has no `import()`. Only ever called on Node.
 */
export async function nodeImport<T>(specifier: string): Promise<T> {
  const proc = (globalThis as { process?: NodeProcess }).process;
  if (specifier.startsWith('node:') && proc?.getBuiltinModule) return proc.getBuiltinModule(specifier) as T;
  try {
    return await (new Function('s', 'return import(s)') as (s: string) => Promise<T>)(specifier);
  } catch (e) {
    // In a vm context (Vitest, Jest) code made by Function cannot import: require from the app's folder.
    const nodeModule = proc?.getBuiltinModule?.('node:module') as
      | { createRequire(from: string): (id: string) => unknown }
      | undefined;
    if (!nodeModule || !proc) throw e;
    return nodeModule.createRequire(`${proc.cwd()}/`)(specifier) as T;
  }
}

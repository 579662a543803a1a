import type { HostPluginInstance } from '../../../shared/host-plugin.js';
import type {
  ActionView,
  ChangeRequest,
  ChangeResult,
  Read,
  ReadResult,
  RedactionRules,
  StateProtocol,
  StoreView,
} from '../protocol.js';
import type { StateData } from './data.js';
import type { CompiledRules } from './values.js';

/** One per session: the app's stores and queries as the inspector keeps them, and the way to the app. */
export interface StateHost extends HostPluginInstance<StateProtocol> {
  readonly data: StateData;
  /** True while the app is connected. */
  readonly active: boolean;
  stores(): StoreView[];
  /** A store by name or id; without one, the only store. Throws a ToolArgumentError naming the choices. */
  resolve(store: string | undefined): StoreView;
  /** Why stores may be missing, when there are none (or none active). */
  hint(): string | undefined;
  rules(): RedactionRules;
  compiledRules(): CompiledRules;
  setRules(rules: RedactionRules): RedactionRules;
  /** Reads a value from the app (the window's view: unredacted). */
  read(params: Read, signal?: AbortSignal): Promise<ReadResult>;
  /** Asks the app for a change, then waits (a bounded time) for the actions it recorded to arrive. */
  change(request: ChangeRequest, signal?: AbortSignal): Promise<ChangeResult & { actions: ActionView[] }>;
}

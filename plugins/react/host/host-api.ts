import type { HostPluginInstance } from '../../../shared/host-plugin.js';
import type { RequestMethod, RequestParams, RequestResult } from '../../../shared/plugin-protocol.js';
import type { InspectParams, InspectResult, reactProtocol, Status } from '../protocol.js';

type ToAgent = (typeof reactProtocol)['toAgent'];

/** One per session: asks the app's React agent, and keeps the status it last reported. */
export interface ReactHost extends HostPluginInstance<typeof reactProtocol> {
  ask<M extends RequestMethod<ToAgent>>(
    method: M,
    params: RequestParams<ToAgent, M>,
    signal?: AbortSignal,
  ): Promise<RequestResult<ToAgent, M>>;
  /** One component (react_inspect), its source and stack mapped to the app's original files. */
  inspect(params: InspectParams, signal?: AbortSignal): Promise<InspectResult>;
  status(): Status | undefined;
}

import type { PanelProps } from '../../../renderer/src/panel-kit.js';

/** The app's console (the full panel is being built). */
export default function ConsolePanel(_props: PanelProps) {
  return <div className="view stack" data-testid="console-panel" />;
}

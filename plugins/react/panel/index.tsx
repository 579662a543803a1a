import type { PanelProps } from '../../../renderer/src/panel-kit.js';

export default function ReactPanel({ session }: PanelProps) {
  return <div className="view">{session.id}</div>;
}

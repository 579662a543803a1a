/** The unmistakable failure marker: red, an icon, and the word. */
export function FailedMark({ label = 'Failed' }: { label?: string }) {
  return (
    <span className="status-failed">
      <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true">
        <circle cx="8" cy="8" r="7" fill="currentColor" />
        <path d="M5.2 5.2l5.6 5.6M10.8 5.2l-5.6 5.6" stroke="#fff" strokeWidth="1.8" strokeLinecap="round" />
      </svg>
      {label}
    </span>
  );
}

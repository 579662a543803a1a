/**
 * Where a grid's or list's selection goes for a navigation key, as DevTools' lists move it:
 * arrows by one, PageUp/PageDown by `page`, Home/End to the ends; from no selection, up and PageUp
 * start at the end. Undefined for any other key.
 */
export function nextRowIndex(key: string, selected: number, last: number, page: number): number | undefined {
  switch (key) {
    case 'ArrowDown':
      return Math.min(last, selected + 1);
    case 'ArrowUp':
      return selected < 0 ? last : Math.max(0, selected - 1);
    case 'PageDown':
      return Math.min(last, Math.max(0, selected) + page);
    case 'PageUp':
      return selected < 0 ? Math.max(0, last - page) : Math.max(0, selected - page);
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return undefined;
  }
}

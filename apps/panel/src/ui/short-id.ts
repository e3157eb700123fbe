/** The first characters of an opaque id, the whole one in the title (tooltip) and for screen readers. */
export function shortId(id: string): HTMLElement {
  const element = document.createElement('code');
  element.textContent = id.length > 12 ? `${id.slice(0, 8)}…` : id;
  element.title = id;
  element.setAttribute('aria-label', id);
  return element;
}

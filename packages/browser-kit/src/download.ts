/**
 * Hands a file to the browser's downloads, made from text in memory (an export the panel fetched with
 * its token: a plain link could not carry the Authorization header, and tokens never go in a URL).
 */
export function saveFile(name: string, content: string | Blob, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(typeof content === 'string' ? new Blob([content], { type }) : content);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // After the click's task: the download has taken the URL by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

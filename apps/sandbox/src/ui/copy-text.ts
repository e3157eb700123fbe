/** Copies text, saying so on the button for a moment. */
export async function copyText(button: HTMLButtonElement, text: string): Promise<void> {
  const label = button.textContent;
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    button.textContent = 'Select and copy';
  }
  setTimeout(() => {
    button.textContent = label;
  }, 1200);
}

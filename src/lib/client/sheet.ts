/**
 * A sheet: a modal <dialog> with a title and a Close button, laid over the page (from the foot of
 * the screen on phones). Made once per id on first use and kept; `content` is copied into it, so
 * the page's own markup (which may belong to an island) stays where it is. The dialog gives focus
 * to its first control, keeps it inside, closes on Escape and returns focus to what opened it;
 * a tap on the backdrop closes it too.
 */
export function openSheet(id: string, title: string, content: Element, className = ''): HTMLDialogElement {
  let dialog = document.getElementById(id) as HTMLDialogElement | null;
  if (!dialog) {
    dialog = document.createElement('dialog');
    dialog.id = id;
    dialog.className = `sheet ${className}`.trim();
    dialog.setAttribute('aria-labelledby', `${id}-title`);
    const head = document.createElement('div');
    head.className = 'sheet-head';
    const heading = document.createElement('h2');
    heading.id = `${id}-title`;
    heading.textContent = title;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'sheet-close';
    close.textContent = 'Close';
    close.addEventListener('click', () => dialog!.close());
    head.append(heading, close);
    dialog.append(head, content.cloneNode(true));
    dialog.addEventListener('click', (event) => {
      if (event.target === dialog) dialog!.close();
    });
    document.body.append(dialog);
  }
  dialog.showModal();
  return dialog;
}

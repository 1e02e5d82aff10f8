import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { keepActive, moveActive } from '#src/features/dashboard/combobox-active.ts';
import * as dash from '#src/features/dashboard/dashboard.css.ts';
import * as styles from '#src/features/messages/messages.css.ts';

export interface MemberOption {
  id: string;
  email: string;
  name: string | null;
}

interface Props {
  /** The member chosen (shown in the field when the list is closed). */
  selected: MemberOption | null;
  onSelect: (member: MemberOption) => void;
  /** Asks the server for a few members matching the text (`GET /dashboard/member-search`). */
  search: (q: string) => Promise<MemberOption[] | null>;
  /** How long typing must pause before the server is asked (tests pass 0). */
  debounceMs?: number;
  error?: string | undefined;
}

const optionText = (m: MemberOption) => (m.name ? `${m.name} — ${m.email}` : m.email);

/**
 * The recipient field of the message page: an editable combobox with a list popup (ARIA 1.2
 * « combobox » pattern). Typing asks the server; ↓ and ↑ move through the results (↓ opens the
 * list), Entrée chooses, Échap closes the list (or clears the text when it is closed); the focus
 * stays in the field, the current option is `aria-activedescendant`.
 */
export function MemberCombobox({ selected, onSelect, search, debounceMs = 250, error }: Props) {
  const ids = { input: useId(), list: useId(), status: useId(), error: useId() };
  const [text, setText] = useState(selected ? optionText(selected) : '');
  const [items, setItems] = useState<MemberOption[]>([]);
  const [open, setOpen] = useState(false);
  const [activeId, setActiveId] = useState<string | null>(null);
  const active = activeId === null ? -1 : items.findIndex((m) => m.id === activeId);
  const [status, setStatus] = useState('');
  const typed = useRef(false);

  // Show the chosen member when it changes from outside (a link with ?memberId=…).
  useEffect(() => {
    if (selected && !typed.current) setText(optionText(selected));
  }, [selected]);

  useEffect(() => {
    if (!typed.current) return;
    const q = text.trim();
    if (q.length < 2) {
      setItems([]);
      setOpen(false);
      setStatus(q.length === 0 ? '' : 'Tapez au moins 2 caractères.');
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      void search(q).then((found) => {
        if (!live) return;
        if (found === null) {
          setStatus('La recherche a échoué. Réessayez.');
          return;
        }
        setItems(found);
        setActiveId((id) => keepActive(id, found));
        setOpen(true);
        setStatus(
          found.length === 0 ? 'Aucun membre ne correspond.' : found.length === 1 ? '1 membre trouvé.' : `${found.length} membres trouvés.`,
        );
      });
    }, debounceMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, search, debounceMs]);

  function choose(member: MemberOption) {
    typed.current = false;
    setText(optionText(member));
    setOpen(false);
    setActiveId(null);
    setStatus(`${optionText(member)} choisi(e).`);
    onSelect(member);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) {
          if (items.length > 0) {
            setOpen(true);
            setActiveId(moveActive(items, null, 1));
          }
          return;
        }
        setActiveId((id) => moveActive(items, id, 1));
        return;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) {
          if (items.length > 0) {
            setOpen(true);
            setActiveId(moveActive(items, null, -1));
          }
          return;
        }
        setActiveId((id) => moveActive(items, id, -1));
        return;
      case 'Enter': {
        const member = open && active >= 0 ? items[active] : undefined;
        if (member) {
          event.preventDefault();
          choose(member);
        }
        return;
      }
      case 'Escape':
        if (open) {
          event.preventDefault();
          setOpen(false);
          setActiveId(null);
        } else if (text !== '') {
          event.preventDefault();
          typed.current = true;
          setText('');
        }
        return;
      default:
    }
  }

  const expanded = open && items.length > 0;
  return (
    <div className={dash.control}>
      <label htmlFor={ids.input}>Destinataire</label>
      <div className={styles.combobox}>
        <input
          id={ids.input}
          type="text"
          role="combobox"
          className={`${dash.input} ${styles.comboInput}`}
          autoComplete="off"
          spellCheck={false}
          placeholder="Nom ou adresse e-mail du membre"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={ids.list}
          aria-activedescendant={expanded && active >= 0 ? `${ids.list}-${active}` : undefined}
          aria-describedby={error ? `${ids.status} ${ids.error}` : ids.status}
          aria-invalid={error ? true : undefined}
          value={text}
          onChange={(e) => {
            typed.current = true;
            setText(e.target.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
        />
        <div id={ids.list} role="listbox" aria-label="Membres trouvés" className={styles.listbox} hidden={!expanded}>
          {items.map((m, i) => (
            <div
              key={m.id}
              id={`${ids.list}-${i}`}
              role="option"
              // The focus stays in the field (aria-activedescendant); an option is reached by the arrows.
              tabIndex={-1}
              aria-selected={i === active}
              className={styles.option}
              // Chosen on mouse down, before the field loses the focus and closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                choose(m);
              }}
            >
              {m.name ?? m.email}
              {m.name ? <span className={styles.optionEmail}>{m.email}</span> : null}
            </div>
          ))}
        </div>
      </div>
      <span id={ids.status} className={dash.muted} role="status" aria-live="polite">
        {status}
      </span>
      {error ? (
        <span id={ids.error} className={dash.muted}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

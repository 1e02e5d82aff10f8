import { type RefObject, useCallback, useEffect, useRef } from 'react';
import * as v from 'valibot';

/**
 * Drafts of the wizard's form steps (issue 21): what the member typed and has not saved yet,
 * kept in this browser's localStorage under a key naming the member and the step, restored on
 * reload, removed once the step is saved and, for every step, at sign-out. Nothing leaves the
 * device; the consent boxes are never kept (a consent is given by a tick, each time).
 */

export const DRAFT_PREFIX = 'brouillon-inscription:v1:';
const MAX_DRAFT_CHARS = 20_000;

/** The values of a form, per field name (several for a group of checkboxes). */
export type Draft = Record<string, string[]>;
const draftSchema = v.record(v.pipe(v.string(), v.maxLength(100)), v.pipe(v.array(v.pipe(v.string(), v.maxLength(2000))), v.maxLength(50)));

export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

export function draftKey(userId: string, step: string): string {
  return `${DRAFT_PREFIX}${userId}:${step}`;
}

export function readDraft(storage: DraftStorage, userId: string, step: string): Draft | null {
  try {
    const text = storage.getItem(draftKey(userId, step));
    if (text === null || text.length > MAX_DRAFT_CHARS) return null;
    const parsed = v.safeParse(draftSchema, JSON.parse(text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

export function writeDraft(storage: DraftStorage, userId: string, step: string, draft: Draft): void {
  try {
    const text = JSON.stringify(draft);
    if (text.length <= MAX_DRAFT_CHARS) storage.setItem(draftKey(userId, step), text);
  } catch {
    // Storage full or refused (private browsing): the draft is simply not kept.
  }
}

export function removeDraft(storage: DraftStorage, userId: string, step: string): void {
  try {
    storage.removeItem(draftKey(userId, step));
  } catch {
    // Nothing to do.
  }
}

/** At sign-out: every draft of every member kept on this device. */
export function clearDrafts(storage: DraftStorage = localStorage): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key?.startsWith(DRAFT_PREFIX)) keys.push(key);
    }
    for (const key of keys) storage.removeItem(key);
  } catch {
    // Nothing to do.
  }
}

/** The form's current values, without the excluded fields (consents). */
function draftOf(form: HTMLFormElement, exclude: readonly string[]): Draft {
  const draft: Draft = {};
  for (const [name, value] of new FormData(form)) {
    if (exclude.includes(name) || typeof value !== 'string') continue;
    const values = draft[name] ?? [];
    values.push(value);
    draft[name] = values;
  }
  return draft;
}

/** Puts a draft back into the form's fields (text, number, date, textarea, radio, checkbox). */
export function restoreDraft(form: HTMLFormElement, draft: Draft, exclude: readonly string[]): void {
  for (const element of Array.from(form.elements)) {
    if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement)) continue;
    const name = element.name;
    if (!name || exclude.includes(name) || !Object.hasOwn(draft, name)) continue;
    const values = draft[name] ?? [];
    if (element instanceof HTMLInputElement && (element.type === 'radio' || element.type === 'checkbox')) {
      element.checked = values.includes(element.value);
    } else {
      element.value = values[0] ?? '';
    }
  }
}

/**
 * Keeps the form's unsaved answers for this member and step; returns `discard`, to call once the
 * step is saved.
 */
export function useDraft(
  formRef: RefObject<HTMLFormElement | null>,
  userId: string | undefined,
  step: string,
  exclude: readonly string[] = [],
) {
  const timer = useRef<number | null>(null);
  const done = useRef(false);
  const excluded = exclude.join(',');

  useEffect(() => {
    const form = formRef.current;
    if (!form || !userId) return;
    const skip = excluded ? excluded.split(',') : [];
    const draft = readDraft(localStorage, userId, step);
    if (draft) restoreDraft(form, draft, skip);
    const save = () => {
      if (timer.current !== null) window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        timer.current = null;
        if (!done.current) writeDraft(localStorage, userId, step, draftOf(form, skip));
      }, 300);
    };
    // Leaving or reloading the page within the 300 ms: written at once.
    const flush = () => {
      if (timer.current === null) return;
      window.clearTimeout(timer.current);
      timer.current = null;
      if (!done.current) writeDraft(localStorage, userId, step, draftOf(form, skip));
    };
    form.addEventListener('input', save);
    form.addEventListener('change', save);
    window.addEventListener('pagehide', flush);
    return () => {
      form.removeEventListener('input', save);
      form.removeEventListener('change', save);
      window.removeEventListener('pagehide', flush);
      if (timer.current !== null) window.clearTimeout(timer.current);
      timer.current = null;
    };
  }, [formRef, userId, step, excluded]);

  return useCallback(() => {
    done.current = true;
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    if (userId) removeDraft(localStorage, userId, step);
  }, [userId, step]);
}

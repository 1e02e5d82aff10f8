import { describe, expect, it } from 'vitest';
import {
  clearDrafts,
  DRAFT_PREFIX,
  draftKey,
  type DraftStorage,
  readDraft,
  removeDraft,
  writeDraft,
} from '#src/features/onboarding/drafts.ts';

function memoryStorage(): DraftStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    key: (index) => [...map.keys()][index] ?? null,
    get length() {
      return map.size;
    },
  };
}

const AMINA = '7c0b6f7e-0000-4000-8000-000000000001';
const YOUSSEF = '7c0b6f7e-0000-4000-8000-000000000002';

describe('wizard drafts (issue 21): kept per member and step, on this device', () => {
  it('the key names the member and the step; a draft is read back as written', () => {
    const storage = memoryStorage();
    expect(draftKey(AMINA, 'profil')).toBe(`${DRAFT_PREFIX}${AMINA}:profil`);
    writeDraft(storage, AMINA, 'profil', { firstName: ['Amina'], city: ['Lyon'] });
    writeDraft(storage, AMINA, 'questionnaire-profil', { soughtRegions: ['ile-de-france', 'bretagne'] });
    expect(readDraft(storage, AMINA, 'profil')).toEqual({ firstName: ['Amina'], city: ['Lyon'] });
    expect(readDraft(storage, AMINA, 'questionnaire-profil')).toEqual({ soughtRegions: ['ile-de-france', 'bretagne'] });
  });

  it('another member on the same device never sees the draft', () => {
    const storage = memoryStorage();
    writeDraft(storage, AMINA, 'profil', { firstName: ['Amina'] });
    expect(readDraft(storage, YOUSSEF, 'profil')).toBeNull();
  });

  it('a saved step removes its draft only', () => {
    const storage = memoryStorage();
    writeDraft(storage, AMINA, 'profil', { firstName: ['Amina'] });
    writeDraft(storage, AMINA, 'questionnaire-profil', { otherQualities: ['Sincère'] });
    removeDraft(storage, AMINA, 'profil');
    expect(readDraft(storage, AMINA, 'profil')).toBeNull();
    expect(readDraft(storage, AMINA, 'questionnaire-profil')).not.toBeNull();
  });

  it('sign-out removes every draft and nothing else', () => {
    const storage = memoryStorage();
    writeDraft(storage, AMINA, 'profil', { firstName: ['Amina'] });
    writeDraft(storage, YOUSSEF, 'questionnaire-profil', { otherQualities: ['Sincère'] });
    storage.setItem('cookie-consent', 'x');
    clearDrafts(storage);
    expect([...storage.map.keys()]).toEqual(['cookie-consent']);
  });

  it('a damaged or foreign value is ignored, never thrown', () => {
    const storage = memoryStorage();
    storage.setItem(draftKey(AMINA, 'profil'), '{pas du json');
    expect(readDraft(storage, AMINA, 'profil')).toBeNull();
    storage.setItem(draftKey(AMINA, 'profil'), JSON.stringify({ firstName: 'Amina' }));
    expect(readDraft(storage, AMINA, 'profil')).toBeNull();
    storage.setItem(draftKey(AMINA, 'profil'), 'x'.repeat(30_000));
    expect(readDraft(storage, AMINA, 'profil')).toBeNull();
  });

  it('a full storage keeps nothing and does not throw', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(() => writeDraft(storage, AMINA, 'profil', { firstName: ['Amina'] })).not.toThrow();
  });
});

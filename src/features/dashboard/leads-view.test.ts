import { describe, expect, it } from 'vitest';
import {
  deliveryLabel,
  deliveryTone,
  followUpDue,
  formatFollowUp,
  historyLine,
  kindLabel,
  leadTitle,
  statusLabel,
} from '#src/features/dashboard/leads-view.ts';

describe('leads view', () => {
  it('shows French labels for every stored code, never the code', () => {
    expect(statusLabel('sans_suite')).toBe('Sans suite');
    expect(statusLabel('contacte')).toBe('Contacté');
    expect(kindLabel('pre_subscription')).toBe('Pré-inscription');
    expect(kindLabel('contact')).toBe('Message de contact');
    expect(statusLabel('inconnu-du-tout')).toBe('Inconnu');
  });

  it('formats follow-up days in French and knows when one is due (Paris time)', () => {
    expect(formatFollowUp('2026-12-03')).toBe('3 déc. 2026');
    expect(formatFollowUp(null)).toBe('—');
    // 23:30 UTC on 2 December is already 3 December in Paris.
    expect(followUpDue('2026-12-03', new Date('2026-12-02T23:30:00Z'))).toBe(true);
    expect(followUpDue('2026-12-03', new Date('2026-12-02T12:00:00Z'))).toBe(false);
    expect(followUpDue(null, new Date())).toBe(false);
  });

  it('writes each history row as a French sentence with who did what', () => {
    const base = { actor: 'Samira', from: null, to: null, fromName: null, toName: null };
    expect(historyLine({ ...base, field: 'status', from: 'nouveau', to: 'contacte' })).toBe(
      'Samira a changé le statut : Nouveau → Contacté',
    );
    expect(historyLine({ ...base, field: 'assignee', from: 'x', to: 'y', toName: 'Karim' })).toBe(
      'Samira a changé la personne en charge : personne → Karim',
    );
    expect(historyLine({ ...base, field: 'follow_up', to: '2026-12-03' })).toBe(
      'Samira a changé la date de relance : aucune → 3 déc. 2026',
    );
    expect(historyLine({ ...base, field: 'note' })).toBe('Samira a ajouté une note');
    expect(historyLine({ ...base, field: 'answer', to: 'Nos formules' })).toBe('Samira a répondu par e-mail : « Nos formules »');
  });

  it('says where an answer’s mail stands in words, a failure in red', () => {
    expect(deliveryLabel('sent')).toBe('Envoyé');
    expect(deliveryLabel('retrying')).toBe('Échec de l’envoi, nouvel essai automatique');
    expect(deliveryLabel('failed')).toMatch(/^Échec de l’envoi : /);
    expect(deliveryLabel('sending')).toBe('Inconnu');
    expect([deliveryTone('sent'), deliveryTone('retrying'), deliveryTone('failed')]).toEqual(['success', 'warning', 'danger']);
  });

  it('names a lead by name and address, or the address alone', () => {
    expect(leadTitle({ name: 'Khadija', email: 'k@example.fr' })).toBe('Khadija (k@example.fr)');
    expect(leadTitle({ name: null, email: 'k@example.fr' })).toBe('k@example.fr');
  });
});

import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { fillTemplate, MessageInput, TemplateInput, unknownPlaceholders } from '#machines/messages/messages.ts';

const values = { prenom: 'Amina', nom: 'Benali', agence: 'Union Sincère' };

describe('message templates', () => {
  it('fills each known placeholder, every time it appears, and leaves other braces alone', () => {
    expect(fillTemplate('Bonjour {prenom} {nom}, {prenom} ! — {agence} {x}', values)).toBe(
      'Bonjour Amina Benali, Amina ! — Union Sincère {x}',
    );
  });

  it('drops an empty value with the space before it', () => {
    expect(fillTemplate('Bonjour {prenom}, merci.', { ...values, prenom: '' })).toBe('Bonjour, merci.');
    expect(fillTemplate('{prenom}', { ...values, prenom: '  ' })).toBe('');
  });

  it('names the unknown placeholders once each, in order', () => {
    expect(unknownPlaceholders('{prénom} {nom} {tel} {prénom} {}')).toEqual(['{prénom}', '{tel}', '{}']);
    expect(unknownPlaceholders('Sans champ')).toEqual([]);
  });

  it('validates a template: trimmed title required, known placeholders only, no extra field', () => {
    expect(v.parse(TemplateInput, { title: ' Relance ', body: ' Bonjour {prenom} ' })).toEqual({
      title: 'Relance',
      subject: '',
      body: 'Bonjour {prenom}',
    });
    const bad = v.safeParse(TemplateInput, { title: 'X', subject: '{civilite}', body: 'Y' });
    expect(bad.success).toBe(false);
    expect(bad.issues?.[0]?.message).toBe('Champ inconnu : {civilite}. Champs possibles : {prenom}, {nom}, {agence}.');
    expect(v.safeParse(TemplateInput, { title: 'X', body: 'Y', authorId: 'z' }).success).toBe(false);
  });
});

describe('a message', () => {
  it('is trimmed, needs a body, and refuses extra fields', () => {
    expect(v.parse(MessageInput, { body: '  Salam  ' })).toEqual({ subject: '', body: 'Salam' });
    expect(v.safeParse(MessageInput, { body: ' \n ' }).issues?.[0]?.message).toBe('Message requis');
    expect(v.safeParse(MessageInput, { body: 'x', memberId: 'y' }).success).toBe(false);
  });
});

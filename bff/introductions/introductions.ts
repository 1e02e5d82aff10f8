/**
 * The introductions module's public face (issue 22): commands, jobs and read models live in the
 * modules below, split by what changes together (issue 61); callers keep importing from here.
 */
export * from '#bff/introductions/introduction-core.ts';
export * from '#bff/introductions/introduction-event-mails.ts';
export * from '#bff/introductions/introduction-commands.ts';
export * from '#bff/introductions/introduction-jobs.ts';
export * from '#bff/introductions/member-introduction-views.ts';
export * from '#bff/introductions/staff-introduction-views.ts';

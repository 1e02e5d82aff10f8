import { api, send } from '#src/lib/api-client.ts';

/** `GET /api/v1/user/email`: the account's address and the one waiting for confirmation, if any. */
export const fetchEmailStatus = () => send(api.user.email.$get());

/** `POST /api/v1/user/email`: mails a confirmation link to the new address (nothing changes before). */
export const requestEmailChange = (input: { newEmail: string; currentPassword: string }) => send(api.user.email.$post({ json: input }));

/** `POST /api/v1/user/email/confirm`: applies the change with the link's token. */
export const confirmEmailChange = (tokenHash: string) => send(api.user.email.confirm.$post({ json: { tokenHash } }));

/** `POST /api/v1/user/password`: the current password, the new one and its repeat. */
export const changeOwnPassword = (input: { currentPassword: string; newPassword: string; newPasswordRepeat: string }) =>
  send(api.user.password.$post({ json: input }));

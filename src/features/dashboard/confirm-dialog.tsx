import type { ReactElement, ReactNode } from 'react';
import { ActionDialog } from '#src/components/ui/action-dialog.tsx';
import type { ApiResult } from '#src/lib/api-result.ts';

/**
 * A staff action that asks no more than a confirmation (`ActionDialog` without fields): the title
 * asks, the description says what will happen, « Annuler » has the focus first (the safe answer),
 * the confirm button runs the request (busy, then the French error if it failed, the dialog still
 * open); once it succeeded, `onConfirmed` runs and the dialog closes.
 */
export function ConfirmDialog<T>({
  trigger,
  title,
  description,
  children,
  confirmLabel,
  busyLabel,
  destructive = true,
  request,
  onConfirmed,
  onCloseAutoFocus,
}: {
  /** The button that opens the dialog. */
  trigger: ReactElement;
  title: ReactNode;
  description: ReactNode;
  /** More to read under the description (who is concerned, what is recorded). */
  children?: ReactNode;
  confirmLabel: ReactNode;
  busyLabel: string;
  /** A destructive action: warning text and danger-toned confirm button. */
  destructive?: boolean;
  request: () => Promise<ApiResult<T>>;
  onConfirmed: (data: T) => Promise<void> | void;
  onCloseAutoFocus?: (event: Event) => void;
}) {
  return (
    <ActionDialog
      trigger={trigger}
      title={title}
      description={description}
      submitLabel={confirmLabel}
      busyLabel={busyLabel}
      tone={destructive ? 'danger' : 'normal'}
      focusCancel
      onSubmit={async () => {
        const result = await request();
        if (!result.ok) return result.error.message;
        await onConfirmed(result.data);
        return null;
      }}
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      {children}
    </ActionDialog>
  );
}

/**
 * The extension point for mailing invitation links (README, "Invitations"). Pressroom has no
 * mail server of its own: by default there is no mailer, and the owner hands the link over,
 * which the dashboard shows once. A deployment that can send mail passes one to `createApp`.
 *
 * `link` holds the invitation's secret token: a mailer must not log it, nor put it in an error
 * it throws (a failure is logged without the error's message all the same).
 */
export interface Mailer {
  sendInvitation(invitation: {
    /** The invited email. */
    to: string;
    /** The one-time link, `…/dashboard/#/join/{token}`. */
    link: string;
    workspaceName: string;
    /** The inviting owner's name. */
    invitedBy: string;
  }): Promise<void>;
}

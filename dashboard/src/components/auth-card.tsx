import type { ComponentChildren } from "preact";
import { Logo } from "./logo.js";

/**
 * The centred card of the signed-out screens. Its heading takes the focus when the app moves
 * from one such screen to another (app.tsx), so it can be focused from script.
 */
export function AuthCard({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <main class="auth">
      <div class="auth-card">
        <p class="brand">
          <Logo /> Pressroom
        </p>
        <h1 tabIndex={-1}>{title}</h1>
        {children}
      </div>
    </main>
  );
}

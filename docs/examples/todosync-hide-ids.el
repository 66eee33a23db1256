;;; todosync-hide-ids.el --- hide todosync's id comments in Markdown buffers  -*- lexical-binding: t; -*-
;; The comments (<!-- id: … -->) stay in the file; only the display hides them.
;; Install: (load "~/path/to/todosync-hide-ids.el") in your init file. M-x todosync-hide-ids-mode
;; toggles it in a buffer; it turns on by itself in markdown-mode and gfm-mode.

(defconst todosync-id-regexp
  "[ \t]*<!-- id: [0-9A-Fa-f]\\{8\\}-[0-9A-Fa-f]\\{4\\}-[0-9A-Fa-f]\\{4\\}-[0-9A-Fa-f]\\{4\\}-[0-9A-Fa-f]\\{12\\} -->"
  "An id comment as todosync writes it, with the space before it.")

(defconst todosync--keywords
  `((,todosync-id-regexp 0 '(face nil invisible todosync-id) prepend)))

(define-minor-mode todosync-hide-ids-mode
  "Hide todosync's id comments."
  :lighter nil
  (if todosync-hide-ids-mode
      (progn
        (add-to-list (make-local-variable 'font-lock-extra-managed-props) 'invisible)
        (font-lock-add-keywords nil todosync--keywords 'append)
        (add-to-invisibility-spec 'todosync-id))
    (font-lock-remove-keywords nil todosync--keywords)
    (remove-from-invisibility-spec 'todosync-id))
  (font-lock-flush))

(add-hook 'markdown-mode-hook #'todosync-hide-ids-mode)
(add-hook 'gfm-mode-hook #'todosync-hide-ids-mode)

(provide 'todosync-hide-ids)
;;; todosync-hide-ids.el ends here

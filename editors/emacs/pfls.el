;;; pfls.el --- Eglot set-up for pfls, the parallel Fortran language server -*- lexical-binding: t -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (eglot "1.9"))
;; Keywords: languages, fortran, lsp

;;; Commentary:

;; Registers `pfls serve' with Eglot for `fortran-mode' (fixed form) and
;; `f90-mode' (free form), opens .hpf files in `f90-mode' and .fcm files in
;; `fortran-mode', and adds `pfls-estimate-loop', "Estimate this loop" for
;; the loop on the current line.  Eglot ships with Emacs 29 and later; on
;; Emacs 28 install it (Debian: the elpa-eglot package).
;;
;;   (add-to-list 'load-path "/path/to/pfls/editors/emacs")
;;   (require 'pfls)
;;   (add-hook 'fortran-mode-hook #'eglot-ensure)
;;   (add-hook 'f90-mode-hook #'eglot-ensure)
;;
;; Settings go to the server through `eglot-workspace-configuration', e.g.
;;   (setq-default eglot-workspace-configuration
;;                 '(:pfls (:estimate (:procs 64) :inlayHints (:maxLength 60))))
;; See docs/editors/emacs.md.

;;; Code:

(require 'eglot)
(require 'jsonrpc)

(defgroup pfls nil
  "The pfls language server for parallel Fortran."
  :group 'languages
  :prefix "pfls-")

(defcustom pfls-program "pfls"
  "The pfls binary: a name looked up on `exec-path', or a file name."
  :type 'string)

(defconst pfls-modes '(fortran-mode f90-mode)
  "The major modes whose buffers Eglot serves with pfls.")

(defun pfls--contact (&optional _interactive)
  "The command Eglot runs for pfls; an error when the binary is missing."
  (let ((bin (executable-find pfls-program)))
    (unless bin
      (user-error "pfls: %s not found; build it with \"go build -o pfls ./cmd/pfls\" and put it on your PATH, or set `pfls-program' (README, \"Build and install\")"
                  pfls-program))
    (list bin "serve")))

(add-to-list 'eglot-server-programs (cons pfls-modes #'pfls--contact))
(add-to-list 'auto-mode-alist '("\\.hpf\\'" . f90-mode))
(add-to-list 'auto-mode-alist '("\\.fcm\\'" . fortran-mode))

(defun pfls--uri ()
  "The URI of the current buffer's file, as Eglot writes it."
  (funcall (if (fboundp 'eglot-path-to-uri) #'eglot-path-to-uri #'eglot--path-to-uri)
           (buffer-file-name)))

(defun pfls-estimate-loop ()
  "Estimate this loop: the time of the loop on the current line under its
distribution and under each candidate distribution, in a buffer."
  (interactive)
  (let* ((server (or (eglot-current-server) (user-error "pfls: no Eglot server in this buffer")))
         (report (jsonrpc-request server :workspace/executeCommand
                                  (list :command "pfls.estimateLoop"
                                        :arguments (vector (pfls--uri) (line-number-at-pos))))))
    (with-current-buffer (get-buffer-create "*pfls estimate*")
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert report "\n"))
      (special-mode)
      (display-buffer (current-buffer)))
    report))

(provide 'pfls)
;;; pfls.el ends here

module github.com/pfls/pfls

go 1.24
